import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type DecodeResult,
  encodeMessage,
  FrameDecoder,
  frameCrc,
  MAX_FRAME_BYTES,
} from '../../../firmware-bridge/codec.js';
import type { Message } from '../../../firmware-bridge/messages.js';
import { END, ESC, SlipSplitter, slipEncode } from '../../../firmware-bridge/slip.js';
import { chunked, messageArb, nonHelloArb, seqArb } from './arbitraries.js';

function decodeAll(decoder: FrameDecoder, chunks: readonly Buffer[]): DecodeResult[] {
  return [...chunks.flatMap((chunk) => decoder.push(chunk)), ...decoder.flush()];
}

function accepted(results: readonly DecodeResult[]): Message[] {
  return results.flatMap((result) => (result.ok ? [result.message] : []));
}

/** A frame body (version to CRC) with a correct CRC, for frames `encodeMessage` would refuse to make. */
function withCrc(bytes: readonly number[]): Buffer {
  const body = Buffer.from([...bytes, 0, 0]);
  body.writeUInt16BE(frameCrc(body.subarray(0, -2)), body.length - 2);
  return body;
}

/** The unescaped body of a frame `encodeMessage` made. */
function bodyOf(frame: Buffer): Buffer {
  const [chunk] = new SlipSplitter(MAX_FRAME_BYTES).push(frame);
  if (!chunk?.ok) throw new Error('not a frame');
  return chunk.body;
}

/** Bitwise CRC-16/CCITT-FALSE straight from its parameters, as an oracle for the `crc` package. */
function referenceCrc(bytes: Uint8Array): number {
  let crc = 0xffff;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++)
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

describe('frame codec', () => {
  it('frameCrc has the parameters PROTOCOL.md names', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 600 }),
        (bytes) => frameCrc(Buffer.from(bytes)) === referenceCrc(bytes),
      ),
    );
  });

  it('round-trips every message of every type with any sequence number', () => {
    fc.assert(
      fc.property(messageArb, seqArb, (message, seq) => {
        const frame = encodeMessage(message, seq);
        expect(frame[0]).toBe(END);
        expect(frame.at(-1)).toBe(END);
        expect(frame.subarray(1, -1).includes(END)).toBe(false);
        expect(new FrameDecoder().push(frame)).toEqual([{ ok: true, seq, message, dropped: 0 }]);
      }),
      { numRuns: 500 },
    );
  });

  it('decodes a stream of frames however it is cut into chunks', () => {
    fc.assert(
      fc.property(
        fc.array(nonHelloArb, { minLength: 1, maxLength: 20 }),
        seqArb,
        fc.array(fc.nat(), { maxLength: 40 }),
        (messages, firstSeq, cuts) => {
          const stream = Buffer.concat(
            messages.map((message, i) => encodeMessage(message, (firstSeq + i) & 0xffff)),
          );
          const decoder = new FrameDecoder();
          const results = decodeAll(decoder, chunked(stream, cuts));
          expect(results).toEqual(
            messages.map((message, i) => ({ ok: true, seq: (firstSeq + i) & 0xffff, message, dropped: 0 })),
          );
          expect(decoder.counters).toMatchObject({
            framesOk: messages.length,
            bytesDiscarded: 0,
            droppedFrames: 0,
          });
        },
      ),
    );
  });

  it('loses no valid frame among random garbage, whatever the chunking', () => {
    const item = fc.oneof(
      nonHelloArb.map((message) => ({ message })),
      fc.uint8Array({ minLength: 1, maxLength: 80 }).map((garbage) => ({ garbage: Buffer.from(garbage) })),
      // Noise rich in the SLIP special bytes, ESC last, the case that swallows a frame in naive decoders.
      fc
        .array(fc.constantFrom(END, ESC, 0xdc, 0xdd, 0x01), { maxLength: 6 })
        .map((bytes) => ({ garbage: Buffer.from([...bytes, ESC]) })),
    );
    fc.assert(
      fc.property(fc.array(item, { maxLength: 30 }), fc.array(fc.nat(), { maxLength: 30 }), (items, cuts) => {
        let seq = 0;
        const sent: Message[] = [];
        const stream = Buffer.concat(
          items.map((entry) => {
            if ('garbage' in entry) return entry.garbage;
            sent.push(entry.message);
            return encodeMessage(entry.message, seq++);
          }),
        );
        const decoder = new FrameDecoder();
        const results = decodeAll(decoder, chunked(stream, cuts));
        expect(accepted(results)).toEqual(sent);
        expect(results.filter((result) => result.ok).every((result) => result.dropped === 0)).toBe(true);
        const { framesOk, rejected, bytesDiscarded, droppedFrames } = decoder.counters;
        expect(framesOk).toBe(sent.length);
        expect(Object.values(rejected).reduce((sum, count) => sum + count, 0)).toBe(
          results.length - sent.length,
        );
        expect(bytesDiscarded).toBeLessThanOrEqual(stream.length);
        expect(droppedFrames).toBe(0);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps all of 10,000 frames interleaved with garbage', () => {
    const messages = fc.sample(nonHelloArb, { numRuns: 10_000, seed: 1055 });
    const garbage = fc.sample(fc.uint8Array({ maxLength: 40 }), { numRuns: 10_000, seed: 1662 });
    const stream = Buffer.concat(
      messages.flatMap((message, i) => [Buffer.from(garbage[i] ?? []), encodeMessage(message, i & 0xffff)]),
    );
    const decoder = new FrameDecoder();
    const cuts = fc.sample(fc.nat(), { numRuns: 3000, seed: 8 });
    expect(accepted(decodeAll(decoder, chunked(stream, cuts)))).toEqual(messages);
    expect(decoder.counters).toMatchObject({ framesOk: 10_000, droppedFrames: 0, sequenceGaps: 0 });
  });

  it('refuses any single-byte change inside a frame body with bad CRC', () => {
    fc.assert(
      fc.property(
        messageArb,
        seqArb,
        fc.nat(),
        fc.integer({ min: 1, max: 0xff }),
        (message, seq, at, flip) => {
          const body = bodyOf(encodeMessage(message, seq));
          const position = at % body.length;
          body[position] = (body[position] ?? 0) ^ flip;
          const decoder = new FrameDecoder();
          const results = decoder.push(slipEncode(body));
          expect(results).toMatchObject([{ ok: false, kind: 'bad-crc' }]);
          expect(decoder.counters.rejected['bad-crc']).toBe(1);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('a byte changed on the wire, delimiters included, costs only that frame and is counted', () => {
    fc.assert(
      fc.property(
        fc.tuple(nonHelloArb, nonHelloArb, nonHelloArb),
        fc.nat(),
        fc.integer({ min: 1, max: 0xff }),
        ([before, hit, after], at, flip) => {
          const frames = [encodeMessage(before, 0), encodeMessage(hit, 1), encodeMessage(after, 2)];
          const middle = frames[1] ?? Buffer.alloc(0);
          const position = at % middle.length;
          middle[position] = (middle[position] ?? 0) ^ flip;
          const decoder = new FrameDecoder();
          const results = decodeAll(decoder, [Buffer.concat(frames)]);
          expect(accepted(results)).toEqual([before, after]);
          expect(results.at(-1)).toMatchObject({ ok: true, seq: 2 });
          // The hit frame is either counted lost by the sequence or refused with its number (when only
          // its payload is wrong), never both.
          const refusedWithSeq = results.filter((result) => !result.ok && result.seq === 1).length;
          expect(decoder.counters.droppedFrames + refusedWithSeq).toBe(1);
          const rejections = results.filter((result) => !result.ok).length;
          expect(rejections).toBeGreaterThanOrEqual(1);
          expect(Object.values(decoder.counters.rejected).reduce((sum, count) => sum + count, 0)).toBe(
            rejections,
          );
        },
      ),
      { numRuns: 500 },
    );
  });

  it('a zero byte in place of the closing END passes the CRC, but not the exact payload length', () => {
    const frame = encodeMessage({ type: 'heartbeat', uptimeMs: 0, framesSent: 0 }, 1);
    frame[frame.length - 1] = 0x00;
    const results = new FrameDecoder().push(Buffer.concat([frame, Buffer.from([END])]));
    expect(results).toMatchObject([
      { ok: false, kind: 'bad-payload', reason: 'bad HEARTBEAT payload: 9 bytes, expected 8' },
    ]);
  });

  it('counts sequence gaps as dropped frames, across the wrap at 65535', () => {
    fc.assert(
      fc.property(
        seqArb,
        fc.array(fc.tuple(nonHelloArb, fc.integer({ min: 1, max: 300 })), { minLength: 1, maxLength: 30 }),
        (firstSeq, steps) => {
          const decoder = new FrameDecoder();
          let seq = firstSeq;
          const frames = [encodeMessage({ type: 'ack', ackSeq: 0 }, seq)];
          for (const [message, step] of steps) {
            seq = (seq + step) & 0xffff;
            frames.push(encodeMessage(message, seq));
          }
          const results = decoder.push(Buffer.concat(frames));
          expect(results.map((result) => result.ok && result.dropped)).toEqual([
            0,
            ...steps.map(([, step]) => step - 1),
          ]);
          expect(decoder.counters).toMatchObject({
            sequenceGaps: steps.filter(([, step]) => step > 1).length,
            droppedFrames: steps.reduce((sum, [, step]) => sum + step - 1, 0),
            sequenceResets: 0,
          });
        },
      ),
    );
  });

  it('a HELLO restarts the count; a number going backwards is a reset, not a loss', () => {
    const heartbeat: Message = { type: 'heartbeat', uptimeMs: 1, framesSent: 1 };
    const hello: Message = { type: 'hello', kind: 'keypad', firmware: '1.0.0', serial: 'K1', antennas: [] };
    const decoder = new FrameDecoder();
    const results = decoder.push(
      Buffer.concat([
        encodeMessage(heartbeat, 500),
        encodeMessage(hello, 0),
        encodeMessage(heartbeat, 1),
        encodeMessage(heartbeat, 1),
        encodeMessage(heartbeat, 4),
      ]),
    );
    expect(results.map((result) => result.ok && result.dropped)).toEqual([0, 0, 0, 0, 2]);
    expect(decoder.counters).toMatchObject({ sequenceGaps: 1, droppedFrames: 2, sequenceResets: 1 });
  });

  it('a frame refused for its payload still counts for the sequence and tells its number', () => {
    const decoder = new FrameDecoder();
    const results = decoder.push(
      Buffer.concat([
        encodeMessage({ type: 'ack', ackSeq: 0 }, 7),
        slipEncode(withCrc([1, 0x7f, 0, 8])),
        encodeMessage({ type: 'ack', ackSeq: 0 }, 9),
      ]),
    );
    expect(results).toMatchObject([
      { ok: true, seq: 7 },
      { ok: false, kind: 'unknown-type', reason: 'unknown message type 0x7F', seq: 8 },
      { ok: true, seq: 9, dropped: 0 },
    ]);
  });

  it('refuses frames longer than 512 bytes while holding no more than that', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: MAX_FRAME_BYTES + 1, maxLength: 4 * MAX_FRAME_BYTES }),
        nonHelloArb,
        (oversized, message) => {
          const decoder = new FrameDecoder();
          const results = decoder.push(
            Buffer.concat([slipEncode(Buffer.from(oversized)), encodeMessage(message, 0)]),
          );
          expect(results).toMatchObject([
            { ok: false, kind: 'too-long', reason: 'frame too long (> 512 bytes)' },
            { ok: true, message },
          ]);
        },
      ),
      { numRuns: 50 },
    );
    const decoder = new FrameDecoder();
    const noise = Buffer.alloc(64 * 1024, 0x55);
    for (let i = 0; i < 64; i++) {
      expect(decoder.push(noise)).toEqual([]);
      expect(decoder.pendingBytes).toBeLessThanOrEqual(MAX_FRAME_BYTES);
    }
    expect(decoder.push(Buffer.from([END]))).toMatchObject([
      { ok: false, kind: 'too-long', wireBytes: 4 * 1024 * 1024 },
    ]);
    expect(decoder.counters.bytesDiscarded).toBe(4 * 1024 * 1024);
  });

  it('takes a frame of exactly 512 bytes past the length check', () => {
    const body = withCrc([1, 0x7f, 0, 0, ...Array<number>(MAX_FRAME_BYTES - 6).fill(0xc0)]);
    expect(body.length).toBe(MAX_FRAME_BYTES);
    expect(new FrameDecoder().push(slipEncode(body))).toMatchObject([{ ok: false, kind: 'unknown-type' }]);
  });

  it('the largest messages fit in a frame', () => {
    const label = 'x'.repeat(16);
    const antennas = Array.from({ length: 24 }, (_, index) => ({ index, label }));
    const largest: Message[] = [
      { type: 'hello', kind: 'rfid-reader', firmware: '255.255.255', serial: 'S'.repeat(32), antennas },
      { type: 'command', command: 'set-antenna-map', antennas },
      { type: 'health', status: 'fault', code: 0xffff, detail: 'd'.repeat(64) },
      {
        type: 'round-end',
        round: 0xffff_ffff,
        readerTimeMs: 0xffff_ffff,
        antennas: antennas.map((antenna) => antenna.index),
      },
    ];
    for (const message of largest) {
      expect(new FrameDecoder().push(encodeMessage(message, 0))).toEqual([
        { ok: true, seq: 0, message, dropped: 0 },
      ]);
    }
  });

  it('refuses a ROUND_END over more antennas than a board has, or cut off inside its antenna list', () => {
    const header = [1, 0x12, 0, 5, 0, 0, 0, 7, 0, 0, 0x01, 0x2c];
    const decoder = new FrameDecoder();
    const results = decoder.push(
      Buffer.concat([
        slipEncode(withCrc([...header, 25, ...Array.from({ length: 25 }, (_, index) => index)])),
        slipEncode(withCrc([...header, 24, ...Array.from({ length: 23 }, (_, index) => index)])),
        slipEncode(withCrc([...header, 0, 0])),
      ]),
    );
    expect(results.map((result) => !result.ok && result.reason)).toEqual([
      expect.stringMatching(/^bad ROUND_END payload: antennas: /),
      'truncated ROUND_END payload: 32 bytes, need ≥ 33',
      'bad ROUND_END payload: 10 bytes, expected 9',
    ]);
  });

  it('reports a frame cut off when the link ends mid-frame', () => {
    const decoder = new FrameDecoder();
    const frame = encodeMessage({ type: 'ack', ackSeq: 3 }, 0);
    expect(decoder.push(frame.subarray(0, 5))).toEqual([]);
    expect(decoder.flush()).toMatchObject([
      { ok: false, kind: 'unterminated', reason: 'frame cut off after 4 bytes' },
    ]);
    expect(decoder.push(frame)).toMatchObject([{ ok: true, message: { type: 'ack', ackSeq: 3 } }]);
  });

  it('refuses to encode what it could not decode', () => {
    expect(() => encodeMessage({ type: 'ack', ackSeq: 1 }, 65_536)).toThrow(RangeError);
    expect(() =>
      encodeMessage({ type: 'tag-read', antenna: 1, uid: '04a1b2c3', rssi: -40, readerTimeMs: 0 }, 0),
    ).toThrow(/upper-case hex/);
    expect(() =>
      encodeMessage(
        {
          type: 'hello',
          kind: 'keypad',
          firmware: '1.0.0',
          serial: 'K',
          antennas: [{ index: 0, label: 'a' }],
        },
        0,
      ),
    ).toThrow(/only an rfid-reader has antennas/);
    expect(() =>
      encodeMessage({ type: 'round-end', round: 0, readerTimeMs: 0, antennas: [3, 1, 3] }, 0),
    ).toThrow(/antenna indices repeat/);
  });
});
