/**
 * The entry point (`npm start` runs its build, dist/src/server.js). It only checks that this Node
 * is recent enough before it loads the service: started with an older Node (the system's, not the
 * pinned one), the first module needing Node 24 (node:sqlite, stripped types) would fail with a
 * stack trace that does not say why. Kept to syntax and APIs any Node since 12 has.
 */
const NEEDED_MAJOR = 24;

const major = Number(process.versions.node.split('.')[0]);
if (!(major >= NEEDED_MAJOR)) {
  process.stderr.write(`chat-adapter: needs Node ${NEEDED_MAJOR} or later, this is Node ${process.versions.node}; run it with \`npm start\` (which uses the pinned Node) or a Node ${NEEDED_MAJOR}\n`);
  process.exit(1);
}
await import('./start-service.ts');
