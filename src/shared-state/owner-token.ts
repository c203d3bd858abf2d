/**
 * The unique token that names the owner of a shared claim or queue entry (an `Idempotency-Key`
 * claim, a turn-queue entry): only its owner may complete, renew or delete it. randomUUID draws
 * from Node's cached entropy pool: about a tenth of the CPU of `randomBytes(12)` (which asks
 * OpenSSL on every call), and every chat on Redis makes one.
 */
import { randomUUID } from 'node:crypto';

export const ownerToken = (): string => randomUUID();
