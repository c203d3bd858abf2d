/**
 * Every regular expression of the service, found without a hand-kept list: the literals of each
 * source file under src/ and steps/ (regex-literals.ts), and the patterns built with `new RegExp`,
 * recorded in a fresh Node process that loads every module with RegExp wrapped. A `RegExp(` that
 * does not run while its module loads (one built per call) cannot be recorded, and is reported.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { regexSites } from './regex-literals.ts';

export const ROOT = resolve(import.meta.dirname, '../..');
const FOLDERS = ['src', 'steps'];
/**
 * Modules that start a process when loaded (not imported here; none holds a regex): loading
 * src/start-service.ts would start the service on `local`'s fixed ports (6000, 6080, 6100..6105).
 */
const ENTRY_POINTS = new Set(['src/server.ts', 'src/start-service.ts', 'src/local/serve-parties.ts']);
/** Browser scripts (the playground page): their literals are scanned, but they are not loaded in Node. */
const BROWSER_FOLDER = 'src/http/playground/';

export interface FoundRegex {
  /** Relative to the repository, e.g. `src/reply/reply-styles.ts`. */
  readonly file: string;
  readonly line: number | undefined;
  readonly source: string;
  readonly flags: string;
}

export function sourceFiles(): string[] {
  return FOLDERS.flatMap((folder) =>
    readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
      .filter((name) => /\.(?:ts|js)$/.test(name) && !name.endsWith('.d.ts'))
      .map((name) => join(folder, name))
      .sort(),
  );
}

export interface Inventory {
  readonly regexes: FoundRegex[];
  /** `file:line` of each `RegExp(` that did not run while its module loaded. */
  readonly unrecorded: string[];
}

const RECORDER = `
  const root = process.argv[1];
  const files = JSON.parse(process.argv[2]);
  const made = [];
  const Original = RegExp;
  const record = (re) => {
    const frame = (new Error().stack ?? '').split('\\n').find((l) => l.includes(root + '/src/') || l.includes(root + '/steps/'));
    const file = frame?.match(/(?:file:\\/\\/)?(\\/[^:)]+\\.(?:ts|js))/)?.[1];
    if (file !== undefined && !file.includes('/node_modules/')) made.push({ file: file.slice(root.length + 1), source: re.source, flags: re.flags });
    return re;
  };
  globalThis.RegExp = new Proxy(Original, {
    construct: (target, args, newTarget) => record(Reflect.construct(target, args, newTarget === globalThis.RegExp ? target : newTarget)),
    apply: (target, self, args) => record(Reflect.apply(target, self, args)),
  });
  for (const file of files) await import(root + '/' + file);
  const contacts = await import(root + '/src/contacts/find-contact.ts');
  await contacts.extractContact(process.argv[3], { defaultRegion: 'US' });
  process.stdout.write(JSON.stringify(made));
`;

/**
 * The start-up's contact chat (src/compose.ts runs one before the port opens), run here since the
 * entry points are not loaded: it builds the patterns libphonenumber makes on first use.
 */
const CONTACT_MESSAGE = "Hi, I'm Maria Lopez, call me at 305-482-7719 or maria@example.com";

async function constructedInModules(files: string[]): Promise<Array<FoundRegex & { line: undefined }>> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', RECORDER, ROOT, JSON.stringify(files), CONTACT_MESSAGE], {
    cwd: ROOT,
    timeout: 60_000,
    maxBuffer: 16 * 1024 * 1024,
    env: { ...process.env, LOG_LEVEL: 'silent' },
  });
  return (JSON.parse(stdout) as Array<{ file: string; source: string; flags: string }>).map((r) => ({ ...r, line: undefined }));
}

export async function regexInventory(): Promise<Inventory> {
  const files = sourceFiles();
  const regexes: FoundRegex[] = [];
  const sites = new Map<string, number[]>();
  for (const file of files) {
    const { literals, constructed } = regexSites(readFileSync(join(ROOT, file), 'utf8'));
    for (const literal of literals) regexes.push({ file, ...literal });
    if (constructed.length > 0) sites.set(file, constructed);
  }
  const loadable = files.filter((f) => !ENTRY_POINTS.has(f) && !f.startsWith(BROWSER_FOLDER));
  const built = await constructedInModules(loadable);
  const unrecorded: string[] = [];
  for (const [file, lines] of sites) {
    const recorded = built.filter((r) => r.file === file).length;
    if (recorded < lines.length) unrecorded.push(...lines.map((line) => `${file}:${line}`));
  }
  return { regexes: [...regexes, ...built], unrecorded };
}

export const relativeToRoot = (path: string): string => relative(ROOT, path);
