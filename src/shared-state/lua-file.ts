/**
 * Lua scripts kept as `.lua` files (BullMQ's layout): each file opens with a header naming every
 * KEYS and ARGV entry, and may pull in shared functions with a line `-- @include "<name>"`, read
 * from `includes/<name>.lua` beside it. Read once, when the module that uses a script loads.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const INCLUDE = /^-- @include "([a-z-]+)"$/gm;

/** The script `<dir>/<name>.lua` with its includes expanded (each at most once). */
export function readLuaFile(dir: string, name: string): string {
  const included = new Set<string>();
  const source = readFileSync(join(dir, `${name}.lua`), 'utf8');
  return source.replace(INCLUDE, (_line, include: string) => {
    if (included.has(include)) return '';
    included.add(include);
    return readFileSync(join(dir, 'includes', `${include}.lua`), 'utf8');
  });
}
