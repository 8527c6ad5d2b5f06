/**
 * `JSON.stringify(doc)` handed out in pieces: the same text once joined, but no piece larger than
 * one entry of a section. The store writes a big home's db.json this way (store-files.ts): one
 * string of the whole document (~1 MiB for 1,000 devices) goes to V8's large-object space and,
 * with the Buffer made to write it, stays resident until the next full collection, which a hub
 * under a steady trickle of changes may not make for minutes (measured: 2.7 MiB of a big home's
 * PSS at rest). Pieces of a record's size die young instead.
 */

import { isNullRecord } from './null-prototype.js';

/**
 * Whether `value` is written entry by entry: a map of the store's (null prototype) or a plain
 * object without toJSON, which JSON.stringify writes as its own enumerable keys. Anything else
 * (arrays, boxed values, a Date) is written whole, as JSON.stringify writes it.
 */
const byEntry = (value: unknown): value is Record<string, unknown> => {
  if (isNullRecord(value)) return true;
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.getPrototypeOf(value) === Object.prototype &&
    typeof (value as { toJSON?: unknown }).toJSON !== 'function'
  );
};

/**
 * Hands `put` the text of `JSON.stringify(doc)` in order: `doc`'s own keys, and each key's value
 * entry by entry when it is a plain object (a section of records). What JSON.stringify leaves out
 * (undefined, functions, symbols) is left out here too.
 */
export function jsonPieces(doc: object, put: (piece: string) => void): void {
  put('{');
  let first = true;
  for (const [key, value] of Object.entries(doc)) {
    const name = `${first ? '' : ','}${JSON.stringify(key)}:`;
    if (byEntry(value)) {
      put(`${name}{`);
      let firstEntry = true;
      for (const [id, entry] of Object.entries(value)) {
        const text = JSON.stringify(entry) as string | undefined;
        if (text === undefined) continue;
        put(`${firstEntry ? '' : ','}${JSON.stringify(id)}:${text}`);
        firstEntry = false;
      }
      put('}');
    } else {
      const text = JSON.stringify(value) as string | undefined;
      if (text === undefined) continue;
      put(name + text);
    }
    first = false;
  }
  put('}');
}

/**
 * `JSON.stringify(doc)` as UTF-8 bytes, without one string of the whole (a backup's copy of the
 * store): the pieces are walked twice, once to count their bytes and once to write them into
 * one buffer of that size, so only that buffer outlives the call. Synchronous: what it copies is
 * `doc` at this moment.
 */
export function jsonBytes(doc: object): Buffer {
  let size = 0;
  jsonPieces(doc, (piece) => {
    size += Buffer.byteLength(piece, 'utf8');
  });
  const out = Buffer.allocUnsafeSlow(size);
  let need = 0;
  let at = 0;
  jsonPieces(doc, (piece) => {
    need += Buffer.byteLength(piece, 'utf8');
    at += out.write(piece, at, 'utf8');
  });
  // Both walks see the same document (nothing runs between them), so the second fills the buffer
  // exactly; a document that differed (a toJSON that answers differently each time) is refused,
  // whether it grew (write stops at the end, so only `need` says so) or shrank.
  if (need !== size) throw new Error(`the document changed while it was copied (${need} bytes of ${size})`);
  return out;
}
