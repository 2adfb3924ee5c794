import { isDeepStrictEqual } from 'node:util';
import { LineReader } from '../devices/shuffler/lines.js';
import {
  encodeLine,
  LINE_REJECTIONS,
  lineChecksum,
  MAX_LINE_LENGTH,
  type MessageOf,
  type ParsedLine,
  parseLine,
  type ShufflerMessage,
} from '../devices/shuffler/protocol.js';
import { clearReason, holds, printable, type Target } from './harness.js';
import { ascii, type Mutation, mutate, type Rand } from './mutate.js';

/**
 * The shuffler's checksummed ASCII lines (devices/shuffler/protocol.ts) and their framing (lines.ts).
 * Most mutants get a checksum that matches their text, so they reach the verb and field checks rather
 * than stopping at the CRC; the others stay as noise would leave them. Bytes go through as the link
 * delivers them: invalid UTF-8, control bytes, lines far over the limit.
 */

const SAMPLES: readonly ShufflerMessage[] = [
  { verb: 'HELLO', kind: 'shuffler', proto: 1, serial: 'SH-0042', fw: '2.1.0' },
  {
    verb: 'STATUS',
    gen: 65_535,
    state: 'ready',
    deck: 'A',
    count: 52,
    faceup: ['04A1B2C3'],
    missing: [],
    extra: ['0102030405060708090A'],
    order: ['04A1B2C3', '04FFEE01'],
  },
  { verb: 'STATUS', gen: 0, state: 'jam', code: 'E07', faceup: [], missing: [], extra: [] },
  { verb: 'HB', up: 2 ** 32 - 1, gen: 3 },
  { verb: 'ACK', id: 7 },
  { verb: 'NAK', id: 7, reason: 'busy' },
  { verb: 'SHUFFLE', id: 0 },
];

/** A line's text before its `*CRC`. */
const bodyOf = (message: ShufflerMessage): Buffer =>
  Buffer.from(encodeLine(message).replace(/\*.*\r\n$/, ''));

const MUTATION: Mutation = {
  seeds: SAMPLES.map(bodyOf),
  tokens: [
    ...ascii(' ', '=', '*', ',', '\r', '\n', 'gen=', 'state=', 'faceup=', 'order=', 'count=99999'),
    ...ascii('proto=2', 'id=65536', 'up=4294967296', 'x=1', '__proto__=1', 'constructor=1', '0'.repeat(12)),
    ...ascii(`faceup=${Array(300).fill('04A1B2C3').join(',')}`, 'A'.repeat(MAX_LINE_LENGTH)),
    Buffer.from([0xff]),
    Buffer.from([0xc3, 0x28]),
    Buffer.from([0xe2, 0x82]),
    Buffer.from([0x00]),
  ],
  maxBytes: 2 * MAX_LINE_LENGTH + 64,
};

/** A line's bytes, its ending left to the link: a checked body most of the time, noise otherwise. */
export function hostileLine(rand: Rand): Buffer {
  const body = mutate(rand, MUTATION);
  if (rand() < 0.2) return body;
  return Buffer.concat([body, Buffer.from(`*${lineChecksum(body.toString('latin1'))}`)]);
}

export const SENTINEL: MessageOf<'STATUS'> = {
  verb: 'STATUS',
  gen: 4242,
  state: 'ready',
  deck: 'B',
  count: 52,
  faceup: [],
  missing: [],
  extra: [],
  code: 'SENTINEL',
};
export const SENTINEL_LINE = Buffer.from(encodeLine(SENTINEL), 'latin1');

export function describedLine(line: ParsedLine, what: string): void {
  if (line.ok) return;
  holds(LINE_REJECTIONS.includes(line.kind), `${what}: an unknown rejection ${line.kind}`);
  clearReason(line.reason, what);
}

export const shufflerLines: Target<Buffer> = {
  name: 'shuffler-lines',
  family: 'shuffler',
  generate: hostileLine,
  check(bytes) {
    const parsed = parseLine(bytes.toString('latin1'));
    describedLine(parsed, 'parseLine');
    // The same bytes as the link brings them, ended, then a valid line.
    const reader = new LineReader();
    const lines = [...reader.push(bytes), ...reader.push(Buffer.from('\r\n')), ...reader.push(SENTINEL_LINE)];
    const last = lines.pop();
    holds(last?.ok === true && isDeepStrictEqual(last.message, SENTINEL), 'the valid line after it was lost');
    holds(lines.length > 0, 'a line neither accepted nor refused');
    for (const line of lines) describedLine(line, 'LineReader');
    return parsed.ok ? 'accepted' : 'refused';
  },
  show: (bytes) => printable(bytes),
};
