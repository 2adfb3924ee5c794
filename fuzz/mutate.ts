/**
 * A seeded mutational generator in the manner of libFuzzer and AFL: take a valid input (a frame, a line,
 * a message), apply a few random edits (bit flips, truncation, splices with another seed, repeats,
 * inserted tokens of the format), and hand the result to the parser. The same seed gives the same inputs.
 */

export type Rand = () => number;

/** A whole number in [min, max]. */
export function between(rand: Rand, min: number, max: number): number {
  return min + Math.floor(rand() * (max - min + 1));
}

export function pick<T>(rand: Rand, items: readonly T[]): T {
  const item = items[Math.floor(rand() * items.length)];
  if (item === undefined) throw new RangeError('pick from an empty list');
  return item;
}

export function randomBytes(rand: Rand, length: number): Buffer {
  const bytes = Buffer.alloc(length);
  for (let i = 0; i < length; i++) bytes[i] = Math.floor(rand() * 256);
  return bytes;
}

export interface Mutation {
  /** Valid inputs to start from and to splice with. */
  seeds: readonly Buffer[];
  /** Byte strings that mean something to the parser: delimiters, escapes, keywords. */
  tokens: readonly Buffer[];
  /** A mutant never grows past this. */
  maxBytes: number;
}

/** Bytes that sit on boundaries: sign bits, zero, all ones, ASCII edges. */
const INTERESTING = [0x00, 0x01, 0x7f, 0x80, 0xff, 0x20, 0x0a, 0x0d, 0x22, 0x5c];

type Edit = (rand: Rand, bytes: Buffer, mutation: Mutation) => Buffer;

const at = (rand: Rand, bytes: Buffer): number => between(rand, 0, bytes.length);

const EDITS: readonly Edit[] = [
  function flipBit(rand, bytes) {
    if (bytes.length === 0) return bytes;
    const copy = Buffer.from(bytes);
    const i = between(rand, 0, copy.length - 1);
    copy[i] = (copy[i] ?? 0) ^ (1 << between(rand, 0, 7));
    return copy;
  },
  function setByte(rand, bytes) {
    if (bytes.length === 0) return bytes;
    const copy = Buffer.from(bytes);
    copy[between(rand, 0, copy.length - 1)] = rand() < 0.5 ? pick(rand, INTERESTING) : between(rand, 0, 255);
    return copy;
  },
  function insertToken(rand, bytes, { tokens }) {
    const i = at(rand, bytes);
    return Buffer.concat([bytes.subarray(0, i), pick(rand, tokens), bytes.subarray(i)]);
  },
  function insertRandom(rand, bytes) {
    const i = at(rand, bytes);
    return Buffer.concat([bytes.subarray(0, i), randomBytes(rand, between(rand, 1, 32)), bytes.subarray(i)]);
  },
  function deleteRange(rand, bytes) {
    const from = at(rand, bytes);
    const to = Math.min(bytes.length, from + between(rand, 1, 16));
    return Buffer.concat([bytes.subarray(0, from), bytes.subarray(to)]);
  },
  function truncate(rand, bytes) {
    return bytes.subarray(0, at(rand, bytes));
  },
  function repeatRange(rand, bytes) {
    if (bytes.length === 0) return bytes;
    const from = between(rand, 0, bytes.length - 1);
    const range = bytes.subarray(from, from + between(rand, 1, 64));
    // Mostly a stutter; now and then a flood that makes the input oversized.
    const times = rand() < 0.05 ? between(rand, 100, 2000) : between(rand, 2, 8);
    return Buffer.concat([
      bytes.subarray(0, from),
      ...Array<Buffer>(times).fill(range),
      bytes.subarray(from),
    ]);
  },
  function splice(rand, bytes, { seeds }) {
    const donor = pick(rand, seeds);
    return Buffer.concat([bytes.subarray(0, at(rand, bytes)), donor.subarray(at(rand, donor))]);
  },
];

/** One to four edits of a seed (or of `start`), capped at `maxBytes`. */
export function mutate(rand: Rand, mutation: Mutation, start = pick(rand, mutation.seeds)): Buffer {
  let bytes = start;
  const edits = between(rand, 1, 4);
  for (let i = 0; i < edits; i++) bytes = pick(rand, EDITS)(rand, bytes, mutation);
  return bytes.length > mutation.maxBytes ? bytes.subarray(0, mutation.maxBytes) : bytes;
}

export const ascii = (...texts: string[]): Buffer[] => texts.map((text) => Buffer.from(text, 'latin1'));
