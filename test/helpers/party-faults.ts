/**
 * The ways a downstream party can fail (docs/api.md#when-a-party-fails), played by a loopback stub: shared by the
 * client-level fault tests (test/clients/client-faults.test.ts) and the service-level fault
 * table (test/http/fault-table.test.ts).
 */
import type { ServerResponse } from 'node:http';
import type { StubHandler, StubServer } from './stub-server.ts';

/** The faults of the 6.8 table, and a connection dropped before any status (no answer at all). */
export type Fault =
  | 'refused'
  | 'reset before answering'
  | 'reset mid-answer'
  | 'slow past its timeout'
  | '5xx'
  | 'malformed JSON'
  | 'out of contract';

export const FAULTS: readonly Fault[] = [
  'refused',
  'reset before answering',
  'reset mid-answer',
  'slow past its timeout',
  '5xx',
  'malformed JSON',
  'out of contract',
];

/**
 * Answers `res` the way `fault` says. `slowMs` is how late a slow party answers (longer than the
 * caller's timeout). 'refused' answers nothing here: a refused connection needs a closed port
 * (`StubServer.down()`, or an address nothing listens on).
 */
export function misbehave(fault: Fault, res: ServerResponse, slowMs: number): void {
  const json = (status: number, text: string): void => void res.writeHead(status, { 'content-type': 'application/json' }).end(text);
  switch (fault) {
    case 'reset before answering':
      res.socket?.destroy();
      return;
    case 'reset mid-answer':
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"response": "Our off');
      setTimeout(() => res.socket?.destroy(), 20);
      return;
    case 'slow past its timeout':
      setTimeout(() => {
        if (!res.destroyed) json(200, '{}');
      }, slowMs);
      return;
    case '5xx':
      return json(503, '{"errors": [{"message": "down"}]}');
    case 'malformed JSON':
      return json(200, '{"data": {"createServiceMessage": ');
    case 'out of contract':
      // Wrong types for every party's answer: engine `response`, translate `translated_text`,
      // property API `units`, GraphQL `createServiceMessage.id`.
      return json(200, '{"data": {"createServiceMessage": {"id": 7}}, "units": "many", "translated_text": 3, "response": 1}');
    case 'refused':
      return;
  }
}

/** Puts `fault` on a stub: takes it down for 'refused', otherwise answers every request that way. */
export async function applyFault(stub: StubServer, fault: Fault, slowMs: number): Promise<void> {
  if (fault === 'refused') return stub.down();
  stub.handle((_req, res) => misbehave(fault, res, slowMs));
}

/** Ends any fault: the stub listens again and answers with `healthy`. */
export async function clearFault(stub: StubServer, healthy: StubHandler): Promise<void> {
  stub.handle(healthy);
  await stub.up();
}
