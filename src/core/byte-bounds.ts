/**
 * Every stored thing has a byte bound: each section of the data file declares how many bytes of
 * JSON it may hold in all and, for a map of records, how many one record may hold. A count
 * alone does not bound a section (150 flows of half a megabyte made a 72 MiB data file). A write
 * past a bound fails with a 413 naming it and changes nothing; a change that makes a section
 * smaller always goes through, so a home over a bound (an older hub's data) can still tidy up.
 */
import { HearthError } from './errors.js';

export const KiB = 1024;
export const MiB = 1024 * KiB;

export interface ByteBound {
  /** Bytes of JSON the whole section may hold. */
  readonly section: number;
  /** What the section holds, for sentences: 'flows'. */
  readonly items: string;
}

export interface RecordBound extends ByteBound {
  /** Bytes of JSON one record may hold. */
  readonly record: number;
  /** One record, for sentences: 'a flow'. */
  readonly item: string;
}

/** Sizes of records (never mutated once stored: see store.ts), by identity. */
const sizes = new WeakMap<object, number>();

/** Bytes of `value` as JSON (UTF-8), remembered for objects: a stored record is sized once. */
export function sizeOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return Buffer.byteLength(JSON.stringify(value) ?? '');
  const known = sizes.get(value);
  if (known !== undefined) return known;
  const size = Buffer.byteLength(JSON.stringify(value));
  sizes.set(value, size);
  return size;
}

const amount = (bytes: number): string =>
  bytes >= MiB ? `${(bytes / MiB).toFixed(1).replace(/\.0$/, '')} MiB` : bytes >= KiB ? `${Math.ceil(bytes / KiB)} KiB` : `${bytes} bytes`;

/** Throws a 413 when one record is past its bound. */
export function checkRecordBytes(bound: RecordBound, bytes: number): void {
  if (bytes > bound.record)
    throw new HearthError('payload_too_large', `not stored: ${bound.item} holds at most ${amount(bound.record)}, and this one would hold ${amount(bytes)}`);
}

/** Throws a 413 when a change grows the section (`before` -> `after` bytes) past its bound. */
export function checkSectionBytes(bound: ByteBound, before: number, after: number): void {
  if (after > bound.section && after > before)
    throw new HearthError(
      'payload_too_large',
      `not stored: the home's ${bound.items} hold at most ${amount(bound.section)} in all, and this change would make them ${amount(after)}; remove some first`,
    );
}
