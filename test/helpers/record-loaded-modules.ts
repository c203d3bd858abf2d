/**
 * Preloaded with `node --import` into a service process: records every module the process resolves
 * (ESM imports and CommonJS requires alike) and writes their URLs, one a line, to the file named by
 * RECORD_LOADED_MODULES when the process exits.
 */
import { writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

const loaded = new Set<string>();
registerHooks({
  resolve(specifier, context, nextResolve) {
    const result = nextResolve(specifier, context);
    loaded.add(result.url);
    return result;
  },
});
const target = process.env['RECORD_LOADED_MODULES'];
if (target !== undefined) process.on('exit', () => writeFileSync(target, [...loaded].join('\n')));
