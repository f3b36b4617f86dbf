/**
 * Positions are opaque strings. Every adapter encodes its native position (PostgreSQL: transaction
 * id then sequence; EventStoreDB: commit then prepare) as two fixed-width decimal fields, so the
 * strings of one adapter sort lexicographically in global order. Nothing outside an adapter parses
 * them; everything compares them with `comparePositions`.
 */
import { z } from 'zod';

declare const brand: unique symbol;
export type Position = string & { readonly [brand]: 'Position' };

const WIDTH = 20;
export const positionPattern = /^\d{20}-\d{20}$/;
export const positionSchema = z
  .string()
  .regex(positionPattern, 'must be a position returned by a command')
  .transform((s) => s as Position);

/** For adapters only: encode a native (major, minor) pair. Both must be non-negative. */
export function encodePosition(major: bigint | number | string, minor: bigint | number | string): Position {
  const a = BigInt(major);
  const b = BigInt(minor);
  if (a < 0n || b < 0n) throw new RangeError('positions are non-negative');
  return `${a.toString().padStart(WIDTH, '0')}-${b.toString().padStart(WIDTH, '0')}` as Position;
}

/** For adapters only: decode a position they encoded. */
export function decodePosition(position: Position): [bigint, bigint] {
  if (!positionPattern.test(position)) throw new RangeError(`not a position: ${position}`);
  const [a, b] = position.split('-') as [string, string];
  return [BigInt(a), BigInt(b)];
}

/** Negative when a is before b, 0 when equal, positive after. `undefined` is before everything. */
export function comparePositions(a: Position | undefined, b: Position | undefined): number {
  if (a === b) return 0;
  if (a === undefined) return -1;
  if (b === undefined) return 1;
  return a < b ? -1 : 1;
}
