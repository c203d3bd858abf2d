/**
 * Log lines for a person at a terminal: when stdout is a TTY (`npm start` in a shell), each JSON
 * line pino writes is shown as one short line, `12:04:05 INFO  chat adapter listening url=...`,
 * and the line saying where to point a browser stands out on its own. Anything else (a file, a
 * pipe, a container's log collector) keeps the JSON lines, one per event, for machines.
 *
 * Written here rather than through pino-pretty: pino-pretty is a development dependency (it is
 * absent from the production image, where `docker run -it` still gives a TTY), and a line of this
 * kind needs only the fields pino already wrote.
 */
import { writeSync } from 'node:fs';
import type { DestinationStream } from 'pino';

const LEVELS: ReadonlyMap<number, string> = new Map([
  [10, 'TRACE'],
  [20, 'DEBUG'],
  [30, 'INFO '],
  [40, 'WARN '],
  [50, 'ERROR'],
  [60, 'FATAL'],
]);

/** Members every line has, or that say nothing to a person at a terminal. */
const NOT_SHOWN: ReadonlySet<string> = new Set(['level', 'time', 'msg', 'service', 'pid', 'hostname']);

/** The message of the start-up line that says which addresses to open (src/http/browser-port.ts). */
export const BROWSER_LINE = 'open in a browser';

/** A line is cut here: a terminal line is read, not archived. */
const MAX_LINE_CHARS = 2_000;

const BOLD = '\u001b[1m';
const RESET = '\u001b[0m';

function shown(value: unknown): string {
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value) ?? String(value);
}

/** `HH:MM:SS` of the line's ISO time, as written (UTC). */
function clock(time: unknown): string {
  return typeof time === 'string' && time.length >= 19 ? time.slice(11, 19) : '--:--:--';
}

/** The start-up line with the addresses to open: a block of its own, in bold. */
function browserBlock(entry: Readonly<Record<string, unknown>>): string {
  const lines = [`${BOLD}  ➜ open in a browser${RESET}`];
  if (typeof entry['playground'] === 'string') lines.push(`${BOLD}    playground:    ${entry['playground']}${RESET}`);
  if (typeof entry['docs'] === 'string') lines.push(`${BOLD}    API reference: ${entry['docs']}${RESET}`);
  return `\n${lines.join('\n')}\n\n`;
}

/** One JSON log line as a person reads it; a line that is not a JSON object is passed on as it is. */
export function terminalLine(json: string): string {
  let entry: unknown;
  try {
    entry = JSON.parse(json);
  } catch {
    return json;
  }
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return json;
  const fields = entry as Readonly<Record<string, unknown>>;
  if (fields['msg'] === BROWSER_LINE) return browserBlock(fields);
  const level = LEVELS.get(fields['level'] as number) ?? 'LOG  ';
  let line = `${clock(fields['time'])} ${level} ${typeof fields['msg'] === 'string' ? fields['msg'] : ''}`;
  for (const [name, value] of Object.entries(fields)) {
    if (!NOT_SHOWN.has(name)) line += ` ${name}=${shown(value)}`;
  }
  if (line.length > MAX_LINE_CHARS) line = `${line.slice(0, MAX_LINE_CHARS)}…`;
  return `${line}\n`;
}

/** A pino destination writing terminalLine()s to `fd` (a TTY: each write is taken at once). */
export function terminalDestination(fd = 1): DestinationStream {
  return {
    write(json: string) {
      writeSync(fd, terminalLine(json.endsWith('\n') ? json.slice(0, -1) : json));
    },
  };
}
