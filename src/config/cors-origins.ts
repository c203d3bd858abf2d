/**
 * CORS_ORIGINS (docs/browser-widgets.md#cors): the browser origins allowed to call the chat routes
 * from another origin. Comma-separated exact origins (`https://www.example.com`, no path, no
 * trailing slash), and/or the word `local`: any port of `http://localhost`, `http://127.0.0.1` and
 * `http://[::1]` (dev servers and the playground). Default: `local` in ENVIRONMENT=local, none elsewhere.
 */
import { ConfigError, envOptionalString, type Env } from './env-parsers.ts';

const VARIABLE = 'CORS_ORIGINS';
/** At most this many origins: each is one Set entry, checked once per request. */
const MAX_ORIGINS = 1_000;

export interface CorsOrigins {
  /** `local`: loopback origins on any port. */
  readonly local: boolean;
  /** Exact origins, in the form browsers send them (lower-case scheme and host, default port left out). */
  readonly origins: readonly string[];
}

/**
 * `text` as a browser would send it in `Origin`, or undefined when it is not an origin: an http(s)
 * URL with nothing after the host and port. Shared with PUBLISHABLE_KEYS (publishable-keys.ts).
 */
export function normaliseOrigin(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  // Only scheme://host[:port]: a path, query, fragment or credentials mean it is not an origin.
  if (url.username !== '' || url.password !== '' || url.pathname !== '/' || url.search !== '' || url.hash !== '' || text.endsWith('?') || text.endsWith('#')) return undefined;
  return url.origin;
}

export function parseCorsOrigins(env: Env, local: boolean): CorsOrigins {
  const value = envOptionalString(env, VARIABLE);
  if (value === undefined) return { local, origins: [] };
  const entries = value.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  if (entries.length > MAX_ORIGINS) throw new ConfigError(VARIABLE, `at most ${MAX_ORIGINS} origins`);
  const origins: string[] = [];
  let allowLocal = false;
  entries.forEach((entry, i) => {
    if (entry === 'local') {
      allowLocal = true;
      return;
    }
    const origin = normaliseOrigin(entry);
    if (origin === undefined) {
      throw new ConfigError(VARIABLE, `entry ${i + 1} ("${entry.slice(0, 100)}") must be an origin such as https://www.example.com (scheme, host, optional port; no path) or the word local`);
    }
    origins.push(origin);
  });
  return { local: allowLocal, origins };
}
