/**
 * The "Try it" examples of README.md, read from the README itself: each `curl` command (address,
 * headers, JSON body) and the output its comment shows, so that a test can run them as written.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ReadmeExample {
  /** `localhost:<port>` as written (6000 the service, 6101..6105 the local parties). */
  readonly port: number;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: unknown;
  /** Every `"key":value` with a scalar value the comment shows; in strings `...` stands for any text. */
  readonly shown: ReadonlyArray<{ key: string; value: string | number | boolean | null }>;
}

const CURL = /curl -s localhost:(\d+)(\/\S*)((?:\s+-H '[^']*')*)\s+-d '([^']*)'/;

function examplesIn(section: string): ReadmeExample[] {
  const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
  return blocks.flatMap((block) => {
    const curl = CURL.exec(block);
    if (curl === null) return [];
    const headers = Object.fromEntries([...curl[3]!.matchAll(/-H '([^:]+):\s*([^']*)'/g)].map((h) => [h[1]!.toLowerCase(), h[2]!]));
    const comment = block.split('\n').filter((line) => line.startsWith('# ')).map((line) => line.slice(2).trim()).join(' ');
    const shown = [...comment.matchAll(/"(\w+)":("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|true|false|null)/g)].map((m) => ({
      key: m[1]!,
      value: JSON.parse(m[2]!) as string | number | boolean | null,
    }));
    return [{ port: Number(curl[1]), path: curl[2]!, headers, body: JSON.parse(curl[4]!), shown }];
  });
}

export function readmeExamples(readmePath: string): ReadmeExample[] {
  const readme = readFileSync(readmePath, 'utf8');
  const start = readme.indexOf('## Try it');
  const end = readme.indexOf('\n## ', start + 1);
  return examplesIn(readme.slice(start, end));
}

/** Every `key: scalar` pair anywhere in a JSON value. */
export function scalarPairs(value: unknown, into: Array<[string, unknown]> = []): Array<[string, unknown]> {
  if (Array.isArray(value)) for (const item of value) scalarPairs(item, into);
  else if (typeof value === 'object' && value !== null) {
    for (const [key, inner] of Object.entries(value)) {
      if (typeof inner === 'object' && inner !== null) scalarPairs(inner, into);
      else into.push([key, inner]);
    }
  }
  return into;
}

/** A shown string with `...` elisions as a whole-string pattern. */
export function shownPattern(text: string): RegExp {
  return new RegExp(`^${text.split('...').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[\\s\\S]*')}$`);
}

export const README_PATH = join(import.meta.dirname, '../../README.md');
