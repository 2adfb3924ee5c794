import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineReader } from '../../../devices/shuffler/lines.js';
import { lineChecksum, MAX_LINE_LENGTH, parseLine } from '../../../devices/shuffler/protocol.js';
import { generatedInputs } from '../../../fuzz/harness.js';
import { shufflerDriverTarget } from '../../../fuzz/shuffler-driver.js';
import { SENTINEL, SENTINEL_LINE, shufflerLines } from '../../../fuzz/shuffler-lines.js';

const signed = (body: string) => `${body}*${lineChecksum(body)}`;
const outcome = (line: string) => {
  const parsed = parseLine(line);
  return parsed.ok ? 'accepted' : `${parsed.kind}: ${parsed.reason}`;
};

describe('shuffler lines: hostile input', () => {
  it('accepts or refuses, with a reason, every generated line, and keeps the line after it', () => {
    fc.assert(
      fc.property(generatedInputs(shufflerLines), (line) => shufflerLines.check(line) !== undefined),
      {
        numRuns: 500,
      },
    );
  });

  it('does the same for any bytes at all', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 600 }),
        (bytes) => shufflerLines.check(Buffer.from(bytes)) !== undefined,
      ),
      { numRuns: 300 },
    );
  });

  it('names what is wrong with a checked line, never the tag UID it carries', () => {
    expect(outcome(signed('STATUS gen=1 state=ready faceup=04A1B2C3,04a1b2c3'))).toBe(
      'bad-field: STATUS: faceup.1 is not a tag UID (4 to 10 bytes, upper-case hex)',
    );
    expect(outcome(signed('HB up=4294967296 gen=0'))).toBe('bad-field: HB: up must be at most 4294967295');
    expect(outcome(signed('ACK id=1 id=2'))).toBe('bad-syntax: ACK: field id given twice');
    expect(outcome(signed('ACK id=1 __proto__=1'))).toBe('bad-syntax: ACK: a field is not key=value');
    expect(outcome(signed('ACK id=1 constructor=1'))).toBe('bad-field: ACK: Unrecognized key: "constructor"');
    expect(outcome(signed(`${'X'.repeat(5000)}`))).toBe(
      `too-long: a line of ${5005} characters, over ${MAX_LINE_LENGTH}`,
    );
  });

  it('names the first five problems of a line, each cut short, and counts the rest', () => {
    // Once every one of them: a 4 kB line of bad UIDs made a reason of 15,000 characters.
    const order = Array.from({ length: 400 }, (_, i) => `0${i}`).join(',');
    const reason = outcome(signed(`STATUS gen=1 state=ready order=${order} ${'z'.repeat(1000)}=1`));
    expect(reason).toBe(
      [
        'bad-field: STATUS: order.0 is not a tag UID (4 to 10 bytes, upper-case hex)',
        ...[1, 2, 3, 4].map((i) => `order.${i} is not a tag UID (4 to 10 bytes, upper-case hex)`),
        'and 396 more',
      ].join('; '),
    );
    expect(outcome(signed(`ACK id=1 ${'k'.repeat(2000)}=1 ${'k'.repeat(2000)}=2`))).toBe(
      `bad-syntax: ACK: field ${'k'.repeat(40)}… (2000 characters) given twice`,
    );
  });

  it('refuses invalid UTF-8 and control bytes as not ASCII, and reads the next line', () => {
    const reader = new LineReader();
    const lines = [
      ...reader.push(Buffer.from([0x48, 0x42, 0x20, 0xc3, 0x28, 0xff, 0x0d, 0x0a])),
      ...reader.push(Buffer.concat([Buffer.from('ACK\u0000id=1*0000\r\n'), SENTINEL_LINE])),
    ];
    expect(lines).toEqual([
      { ok: false, kind: 'not-ascii', reason: 'a byte outside printable ASCII' },
      { ok: false, kind: 'not-ascii', reason: 'a byte outside printable ASCII' },
      { ok: true, message: SENTINEL },
    ]);
  });

  it('refuses a line over the limit once, however long it runs, holding no more of it', () => {
    const reader = new LineReader();
    const flood = Buffer.alloc(10 * MAX_LINE_LENGTH, 0x41);
    const lines = [
      ...reader.push(flood),
      ...reader.push(flood),
      ...reader.push(Buffer.from('\n')),
      ...reader.push(SENTINEL_LINE),
    ];
    expect(lines.map((line) => (line.ok ? 'ok' : line.kind))).toEqual(['too-long', 'ok']);
  });
});

describe('shuffler driver: hostile input', () => {
  it('refuses garbage with a counted reason and still reports the next status, whatever the lines', () => {
    fc.assert(
      fc.property(
        generatedInputs(shufflerDriverTarget),
        (stream) => shufflerDriverTarget.check(stream) !== undefined,
      ),
      { numRuns: 200 },
    );
  });
});
