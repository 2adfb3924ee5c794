import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LineReader } from '../../../../devices/shuffler/lines.js';
import {
  encodeLine,
  lineChecksum,
  MAX_LINE_LENGTH,
  type ParsedLine,
  parseLine,
  type ShufflerMessage,
} from '../../../../devices/shuffler/protocol.js';

const CARD = '04A1B2C3';
const signed = (body: string) => `${body}*${lineChecksum(body)}`;
const reason = (line: string) => {
  const parsed = parseLine(line);
  return parsed.ok ? 'accepted' : `${parsed.kind}: ${parsed.reason}`;
};

describe('shuffler line protocol: codec', () => {
  it('checksums with CRC-16/CCITT-FALSE', () => {
    expect(lineChecksum('123456789')).toBe('29B1');
  });

  it('round-trips every message, leaving out empty lists and unknown fields', () => {
    const messages: ShufflerMessage[] = [
      { verb: 'HELLO', kind: 'shuffler', proto: 1, serial: 'SH-0042', fw: '2.1.0' },
      {
        verb: 'STATUS',
        gen: 65535,
        state: 'ready',
        deck: 'A',
        count: 53,
        faceup: [CARD],
        missing: [],
        extra: ['04FFEE01', '0102030405060708090A'],
        order: [CARD, '04FFEE01'],
      },
      { verb: 'STATUS', gen: 0, state: 'jam', code: 'E07', faceup: [], missing: [], extra: [] },
      { verb: 'HB', up: 2 ** 32 - 1, gen: 3 },
      { verb: 'ACK', id: 7 },
      { verb: 'NAK', id: 7, reason: 'busy' },
      { verb: 'SHUFFLE', id: 0 },
      { verb: 'EJECT', id: 1 },
      { verb: 'IDENT', id: 2 },
      { verb: 'QUERY', id: 3 },
    ];
    for (const message of messages) {
      const line = encodeLine(message);
      expect(line.endsWith('\r\n')).toBe(true);
      expect(parseLine(line.slice(0, -2))).toEqual({ ok: true, message });
    }
    expect(encodeLine({ verb: 'STATUS', gen: 1, state: 'idle', faceup: [], missing: [], extra: [] })).toBe(
      `${signed('STATUS gen=1 state=idle')}\r\n`,
    );
  });

  it('accepts fields in any order and a lower-case checksum', () => {
    const line = `${signed('HB gen=4 up=10')}`.toLowerCase().replace('hb gen=4 up=10', 'HB gen=4 up=10');
    expect(parseLine(line)).toEqual({ ok: true, message: { verb: 'HB', up: 10, gen: 4 } });
  });

  it('refuses to send what a receiver would reject, without naming a tag', () => {
    const bad = { verb: 'STATUS', gen: 0, state: 'ready', faceup: ['xyz', CARD], missing: [], extra: [] };
    expect(() => encodeLine(bad as ShufflerMessage)).toThrow(
      'cannot send STATUS: STATUS: faceup.0 is not a tag UID (4 to 10 bytes, upper-case hex)',
    );
    expect(() => encodeLine({ verb: 'NAK', id: 1, reason: 'door!' })).toThrow(/reason must be letters/);
  });

  it('rejects each kind of bad line with its reason', () => {
    expect(reason('HB up=1 gen=0')).toBe('no-checksum: no *CRC at the end');
    expect(reason('HB up=1 gen=0*12')).toBe('no-checksum: no *CRC at the end');
    expect(reason(`HB up=2 gen=0*${lineChecksum('HB up=1 gen=0')}`)).toMatch(/^bad-checksum: bad checksum/);
    expect(reason(signed('HB up=1 gen=0\u00e9'))).toBe('not-ascii: a byte outside printable ASCII');
    expect(reason(signed('PING id=1'))).toBe('unknown-verb: unknown verb "PING"');
    expect(reason(signed('HB up=1  gen=0'))).toBe('bad-syntax: HB: a field is not key=value');
    expect(reason(signed('HB up=1 up=2 gen=0'))).toBe('bad-syntax: HB: field up given twice');
    expect(reason(signed('HB up=1'))).toBe('bad-field: HB: gen is missing');
    expect(reason(signed('HB up=01 gen=0 x=1'))).toBe(
      'bad-field: HB: up must be a whole number; Unrecognized key: "x"',
    );
    expect(reason(signed('ACK id=65536'))).toBe('bad-field: ACK: id must be at most 65535');
    expect(reason(signed('STATUS gen=0 state=broken'))).toBe(
      'bad-field: STATUS: state must be one of idle, shuffling, ready, jam, door-open, error',
    );
    expect(reason(signed(`STATUS gen=0 state=ready missing=${CARD},${CARD.toLowerCase()}`))).toBe(
      'bad-field: STATUS: missing.1 is not a tag UID (4 to 10 bytes, upper-case hex)',
    );
    expect(reason(signed('HELLO kind=shuffler proto=2 serial=S fw=1'))).toBe(
      'bad-field: HELLO: proto the device speaks protocol 2, croupier speaks 1',
    );
    expect(reason('x'.repeat(MAX_LINE_LENGTH + 1))).toMatch(/^too-long: /);
  });

  it('never puts a tag UID in a rejection', () => {
    for (const body of [
      `STATUS gen=0 state=ready faceup=${CARD}X`,
      `STATUS gen=0 state=nope extra=${CARD}`,
    ]) {
      expect(reason(signed(body))).not.toContain(CARD);
    }
  });

  it('matches the example in PROTOCOL.md line for line', () => {
    const doc = readFileSync(new URL('../../../../devices/shuffler/PROTOCOL.md', import.meta.url), 'utf8');
    const block = /```lines\n([\s\S]*?)```/.exec(doc)?.[1] ?? '';
    const lines = block.trim().split('\n');
    expect(lines.length).toBeGreaterThan(10);
    for (const line of lines) {
      const text = line.slice(2);
      const parsed = parseLine(text);
      expect(parsed.ok, `${text}: ${reason(text)}`).toBe(true);
      if (parsed.ok) expect(encodeLine(parsed.message)).toBe(`${text}\r\n`);
    }
  });
});

describe('shuffler line protocol: framing', () => {
  const hb = (up: number) => encodeLine({ verb: 'HB', up, gen: 0 });
  const kinds = (results: ParsedLine[]) =>
    results.map((result) => (result.ok ? result.message.verb : result.kind));

  it('cuts lines at LF whatever the chunks, with or without CR', () => {
    const reader = new LineReader();
    const bytes = Buffer.from(`${hb(1)}${hb(2).replace('\r\n', '\n')}${hb(3)}`, 'latin1');
    const results = [...bytes].flatMap((byte) => reader.push(Uint8Array.of(byte)));
    expect(results).toEqual([1, 2, 3].map((up) => ({ ok: true, message: { verb: 'HB', up, gen: 0 } })));
  });

  it('rejects an over-long line once and skips it up to its LF, then reads on', () => {
    const reader = new LineReader();
    const noise = Buffer.alloc(MAX_LINE_LENGTH * 3, 'x');
    const results = [
      ...reader.push(Buffer.from(hb(1))),
      ...reader.push(noise),
      ...reader.push(noise),
      ...reader.push(Buffer.from(`yyy\n${hb(2)}`)),
    ];
    expect(kinds(results)).toEqual(['HB', 'too-long', 'HB']);
  });

  it('rejects a line cut off by the link going down, and starts the next link clean', () => {
    const reader = new LineReader();
    const line = hb(5);
    expect(reader.push(Buffer.from(line.slice(0, 6)))).toEqual([]);
    expect(kinds(reader.flush())).toEqual(['cut-off']);
    expect(reader.flush()).toEqual([]);
    expect(kinds(reader.push(Buffer.from(line)))).toEqual(['HB']);
  });
});
