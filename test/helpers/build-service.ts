/**
 * Runs once per `vitest run`, before any test file: builds dist/ (scripts/build.ts, about a
 * second) so that every test starting a real service process runs what `npm start` runs,
 * `node dist/src/server.js`, built from the sources under test.
 */
import { buildDist } from '../../scripts/build.ts';

export default function setup(): void {
  buildDist();
}
