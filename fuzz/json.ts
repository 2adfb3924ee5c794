import { ascii, between, type Mutation, mutate, pick, type Rand } from './mutate.js';

/**
 * Hostile JSON-shaped values for the parsers that take messages and documents: a valid sample with one
 * part swapped for a value of the wrong type, range or size, a key it does not know (`__proto__`
 * among them), or a nesting far deeper than any document has; and its text mutated byte by byte.
 */

const NUMBERS = [0, -0, -1, 1, 0.5, 2 ** 31, 2 ** 32, 2 ** 53 + 2, -(2 ** 53), 1e308, -1e308, 5e-324, 65_536];
const STRINGS = [
  '',
  ' ',
  '__proto__',
  'constructor',
  'null',
  '0',
  'seat:0',
  'seat:99999999999999999999',
  'bet:-1',
  '\u0000',
  '\ud800',
  'é',
  '\u202e',
];
const KEYS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'extra', '', 'type', 'id', 't'];

/** Now and then a string far longer than any field: a refusal must not quote it whole. */
const long = (rand: Rand, short: readonly string[], letter: string): string =>
  rand() < 0.02 ? letter.repeat(20_000) : pick(rand, short);

/** An object with `key` as an own property, as JSON.parse and YAML make them, `__proto__` included. */
export function withKey(
  object: Record<string, unknown>,
  key: string,
  value: unknown,
): Record<string, unknown> {
  return Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A value of any JSON type, edges and sizes included. */
export function hostileValue(rand: Rand, depth = 0): unknown {
  const roll = rand();
  if (roll < 0.15) return null;
  if (roll < 0.25) return rand() < 0.5;
  if (roll < 0.45) return rand() < 0.7 ? pick(rand, NUMBERS) : (rand() - 0.5) * 10 ** between(rand, 0, 12);
  if (roll < 0.7) return rand() < 0.7 ? long(rand, STRINGS, 'x') : 'x'.repeat(between(rand, 0, 100));
  if (depth > 2 || roll < 0.8) return deeplyNested(rand);
  if (roll < 0.9) return Array.from({ length: between(rand, 0, 5) }, () => hostileValue(rand, depth + 1));
  const object: Record<string, unknown> = {};
  for (let i = between(rand, 0, 4); i > 0; i--)
    withKey(object, long(rand, KEYS, 'k'), hostileValue(rand, depth + 1));
  return object;
}

/** Arrays or objects nested up to a thousand deep (the text goes deeper still: `deepText`). */
function deeplyNested(rand: Rand): unknown {
  let value: unknown = 1;
  const depth = rand() < 0.9 ? between(rand, 1, 50) : between(rand, 500, 1000);
  for (let i = 0; i < depth; i++) value = rand() < 0.5 ? [value] : { a: value };
  return value;
}

/** `sample` with one place (a value, or a key added or removed) made hostile. */
export function hostileVariant(rand: Rand, sample: unknown): unknown {
  if (sample === null || typeof sample !== 'object' || rand() < 0.1) return hostileValue(rand);
  const copy: Record<string, unknown> | unknown[] = Array.isArray(sample) ? [...sample] : { ...sample };
  const keys = Object.keys(copy);
  const roll = rand();
  if (keys.length === 0 || roll < 0.15) {
    if (Array.isArray(copy)) copy.push(hostileValue(rand));
    else withKey(copy, long(rand, KEYS, 'k'), hostileValue(rand));
    return copy;
  }
  const key = pick(rand, keys);
  const record = copy as Record<string, unknown>;
  if (roll < 0.25) delete record[key];
  else if (roll < 0.6) record[key] = hostileVariant(rand, record[key]);
  else record[key] = hostileValue(rand);
  return copy;
}

const MUTATION_TOKENS = [
  ...ascii('{', '}', '[', ']', '"', ',', ':', 'null', 'true', '1e999', '-0', '1e-400', '0x10', '"\\u0000"'),
  ...ascii('"__proto__":{"x":1},', '"constructor":{},', '[[[[[[[[[[[[[[[[', '\\', '\\ud800'),
  Buffer.from([0xff, 0xfe]),
  Buffer.from([0xc3, 0x28]),
  Buffer.from([0xed, 0xa0, 0x80]),
];

/** Nesting deeper than any parser's stack: `[[[…]]]` or `{"a":{"a":…}}`. */
export function deepText(rand: Rand): Buffer {
  const depth = between(rand, 5000, 20_000);
  const [open, close] = rand() < 0.5 ? ['[', ']'] : ['{"a":', '}'];
  return Buffer.from(`${open.repeat(depth)}1${close.repeat(depth)}`);
}

/** JSON text of a hostile variant, half the time mutated byte by byte as well. */
export function hostileJsonText(rand: Rand, samples: readonly unknown[]): Buffer {
  if (rand() < 0.01) return deepText(rand);
  const text = Buffer.from(JSON.stringify(hostileVariant(rand, pick(rand, samples))) ?? 'undefined');
  if (rand() < 0.5) return text;
  const mutation: Mutation = { seeds: [text], tokens: MUTATION_TOKENS, maxBytes: 64 * 1024 };
  return mutate(rand, mutation, text);
}
