/**
 * The embedded reference parties on their own, for the compose stack's `parties` container: the
 * same code ENVIRONMENT=local starts next to the service, here listening on every interface at
 * LOCAL_STACK_BASE_PORT + 1..5 (engine, graphql, handoff, propertyApi, translate).
 * Reads its four settings itself: this entry point is not part of the service.
 */
import closeWithGrace from 'close-with-grace';
import { startLocalStack } from './index.ts';

const basePort = Number(process.env['LOCAL_STACK_BASE_PORT'] ?? 6100);
const host = process.env['HOST'] ?? '0.0.0.0';
const dataDir = process.env['LOCAL_DATA_DIR'] ?? './data';
const engineWordMs = Number(process.env['LOCAL_ENGINE_WORD_MS'] ?? 40);
if (!Number.isInteger(basePort) || basePort < 1 || basePort > 65_530) {
  process.stderr.write('parties: LOCAL_STACK_BASE_PORT must be an integer from 1 to 65530\n');
  process.exit(1);
}

const log = (level: string) => (obj: object, msg: string) => process.stdout.write(`${JSON.stringify({ level, msg, ...obj })}\n`);
const stack = await startLocalStack({
  dataDir,
  host,
  basePort,
  engineWordMs: Number.isInteger(engineWordMs) && engineWordMs >= 0 ? engineWordMs : 40,
  parties: new Set(['engine', 'graphql', 'handoff', 'propertyApi', 'translate']),
  logger: { info: log('info'), warn: log('warn') },
});
log('info')({ urls: stack.urls }, 'reference parties listening');
closeWithGrace({ delay: 5_000 }, async () => stack.close());
