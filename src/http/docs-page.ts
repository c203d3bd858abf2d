/**
 * How `GET /docs` looks and behaves: titled and branded for this service (not the stock "Swagger
 * UI" page with the fastify logo), and "Try it out" on the chat sends a fresh `Idempotency-Key`.
 */
import type { FastifySwaggerUiOptions } from '@fastify/swagger-ui';

const BUBBLE =
  '<path d="M7 6h26a5 5 0 0 1 5 5v13a5 5 0 0 1-5 5H20l-8 6v-6H7a5 5 0 0 1-5-5V11a5 5 0 0 1 5-5z" fill="#a5d8ff"/>' +
  '<circle cx="13" cy="17.5" r="2.2" fill="#212529"/><circle cx="20" cy="17.5" r="2.2" fill="#212529"/><circle cx="27" cy="17.5" r="2.2" fill="#212529"/>';

/** The top bar's logo: a chat bubble and the service's name, drawn for the dark bar. */
const LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 330 40" width="330" height="40">' +
  BUBBLE +
  // One text of two runs: the second starts where the first ends, whatever font the browser has.
  '<text x="48" y="25" font-family="system-ui, sans-serif" font-size="19">' +
  '<tspan font-weight="600" fill="#f8f9fa">Chat adapter</tspan><tspan dx="12" font-size="16" fill="#a5d8ff">API reference</tspan>' +
  '</text></svg>';

const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40">${BUBBLE}</svg>`;

/**
 * The top bar in the playground's colours. The bar's "Explore" box (load another document by URL)
 * is hidden: this page documents this service only, and its policy would refuse other origins.
 */
const THEME_CSS = `
.swagger-ui .topbar { background: #212529; padding: 6px 0; }
.swagger-ui .topbar .download-url-wrapper { display: none; }
.swagger-ui .topbar-wrapper > a.link { max-width: none; }
.swagger-ui .topbar-wrapper img { height: 40px; width: auto; }
`;

/**
 * "Try it out" requests pass through this in the browser (@fastify/swagger-ui writes the function's
 * source into the page, so it uses nothing from this module). A chat sent with the
 * `Idempotency-Key` field left empty gets a new key each time: editing the message and sending
 * again is a new request, not a replay with another body (422). A key typed in the field is sent
 * as it is, to try a replay.
 */
function freshIdempotencyKey(request: { method?: string; url?: string; headers?: Record<string, string> }) {
  const headers = request.headers;
  if (String(request.method).toUpperCase() !== 'POST' || !/\/chat_adapter(?:[?#]|$)/.test(String(request.url)) || headers === undefined) return request;
  const given = Object.keys(headers).some((name) => name.toLowerCase() === 'idempotency-key' && String(headers[name]).trim() !== '');
  if (given) return request;
  // crypto.randomUUID needs a secure context; plain http on another host than localhost is not one.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  headers['Idempotency-Key'] = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return request;
}

export const DOCS_PAGE: Pick<FastifySwaggerUiOptions, 'theme' | 'logo' | 'uiConfig'> = {
  theme: {
    title: 'Chat adapter · API reference',
    css: [{ filename: 'chat-adapter.css', content: THEME_CSS }],
    favicon: [{ filename: 'favicon.svg', rel: 'icon', type: 'image/svg+xml', sizes: 'any', content: FAVICON_SVG }],
  },
  logo: { type: 'image/svg+xml', content: LOGO_SVG, href: '/docs', target: '_self' },
  uiConfig: {
    tryItOutEnabled: true,
    deepLinking: true,
    defaultModelsExpandDepth: 0,
    displayRequestDuration: true,
    requestInterceptor: freshIdempotencyKey,
  },
};

const VIEWPORT = '<meta name="viewport" content="width=device-width, initial-scale=1">';

/**
 * The page's HTML with a viewport tag, which @fastify/swagger-ui's page lacks: without one a phone
 * lays the page out 980 px wide and shrinks it. Inserted after the charset declaration, once.
 */
export function withViewport(html: string): string {
  if (html.includes('name="viewport"')) return html;
  return html.replace('<meta charset="UTF-8">', `<meta charset="UTF-8">\n      ${VIEWPORT}`);
}
