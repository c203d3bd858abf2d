/**
 * An honest upper estimate of the heap a JSON-shaped value holds, for byte-bounded stores
 * (docs/api.md#limits). Strings count 2 bytes per UTF-16 code unit (V8 keeps any string holding a
 * character above U+00FF, an emoji for instance, as two-byte) plus a header; objects and arrays a
 * header plus one slot per member. Property names are not counted: they are the schema's few
 * names, shared by every entry. Linear in the value's size, without recursion (no depth limit to hit).
 */
const STRING_HEADER = 24;
const OBJECT_HEADER = 32;
const SLOT = 16;
const NUMBER = 16;

export function stringBytes(text: string): number {
  return STRING_HEADER + 2 * text.length;
}

export function heapBytes(value: unknown): number {
  let total = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') total += stringBytes(next);
    else if (typeof next === 'number' || typeof next === 'bigint') total += NUMBER;
    else if (Array.isArray(next)) {
      total += OBJECT_HEADER + SLOT * next.length;
      for (const item of next) pending.push(item);
    } else if (typeof next === 'object' && next !== null) {
      // for...in, not Object.values: no array per object. The values measured are plain objects
      // (JSON.parse or literals), whose prototype has no enumerable members.
      const record = next as Record<string, unknown>;
      let members = 0;
      for (const name in record) {
        members += 1;
        pending.push(record[name]);
      }
      total += OBJECT_HEADER + SLOT * members;
    }
    // booleans, null, undefined: held in their parent's slot.
  }
  return total;
}

/** heapBytes of a history message `{ role, content }`, without the walk. */
export function messageBytes(message: { readonly role: string; readonly content: string }): number {
  return OBJECT_HEADER + 2 * SLOT + stringBytes(message.role) + stringBytes(message.content);
}

const measured = new WeakMap<object, number>();

/**
 * heapBytes of a value that is never changed after it is measured (a stored message or answer):
 * measured once, by identity. A session's messages and answers stay in it for up to 8 turns and
 * are sized again at each write; this keeps that a lookup.
 */
export function heapBytesOnce(value: object): number {
  let bytes = measured.get(value);
  if (bytes === undefined) {
    bytes = heapBytes(value);
    measured.set(value, bytes);
  }
  return bytes;
}
