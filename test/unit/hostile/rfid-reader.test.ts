import fc from 'fast-check';
import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { type LinkState, type RfidEvent, rfidReader } from '../../../devices/rfid-reader/driver.js';
import { parseRfidReaderConfig } from '../../../devices/rfid-reader/manifest.js';
import { encodeMessage, FrameDecoder, frameCrc, MAX_FRAME_BYTES } from '../../../firmware-bridge/codec.js';
import type { Message } from '../../../firmware-bridge/messages.js';
import { END, slipEncode } from '../../../firmware-bridge/slip.js';
import { generatedInputs } from '../../../fuzz/harness.js';
import { rfidDriver } from '../../../fuzz/rfid-driver.js';
import { dataBytes, rfidFrames, SENTINEL } from '../../../fuzz/rfid-frames.js';
import { mulberry32 } from '../../../simulators/random.js';
import { Bench, BOOT, HELLO, presence, SEAT, uid } from '../devices/rfid-reader/bench.js';

/** A frame body with its CRC right, around whatever header and payload. */
function intact(bytes: readonly number[]): Buffer {
  const body = Buffer.from([...bytes, 0, 0]);
  body.writeUInt16BE(frameCrc(body.subarray(0, -2)), body.length - 2);
  return slipEncode(body);
}

const TAG_READ = 0x10;

describe('rfid-reader frames: hostile input', () => {
  it('decodes or refuses, with a reason, every generated stream; accounts for every byte; keeps the next frame', () => {
    fc.assert(
      fc.property(generatedInputs(rfidFrames), (input) => rfidFrames.check(input) !== undefined),
      {
        numRuns: 300,
      },
    );
  });

  it('does the same for line noise cut anywhere', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3 * MAX_FRAME_BYTES }), fc.nat(), (noise, cut) => {
        const stream = Buffer.from(noise);
        rfidFrames.check({ stream, cut: cut % (stream.length + 1) });
      }),
      { numRuns: 300 },
    );
  });

  it('names each kind of bad frame, and decodes the frame after it', () => {
    const bad = [
      Buffer.concat([Buffer.of(END), Buffer.alloc(MAX_FRAME_BYTES + 1, 0x41), Buffer.of(END)]),
      intact([1, TAG_READ, 0, 1, 2, 4, 0x04, 0xa1]),
      intact([1, TAG_READ, 0, 1, 2, 11, ...Buffer.alloc(11), 0, 0, 0, 0, 0]),
      intact([1, 0x7f, 0, 1]),
      intact([2, TAG_READ, 0, 1]),
      Buffer.from([END, 1, TAG_READ, 0, 1, 0xab, 0xcd, END]),
    ];
    const decoder = new FrameDecoder();
    const results = decoder.push(Buffer.concat([...bad, encodeMessage(SENTINEL, 9)]));
    expect(
      results.map((result) => (result.ok ? result.message : `${result.kind}: ${result.reason}`)),
    ).toEqual([
      `too-long: frame too long (> ${MAX_FRAME_BYTES} bytes)`,
      'bad-payload: truncated TAG_READ payload: 4 bytes, need ≥ 11',
      'bad-payload: bad TAG_READ payload: UID length 11, must be 4 to 10',
      'unknown-type: unknown message type 0x7F',
      'bad-version: bad version 2',
      expect.stringMatching(/^bad-crc: bad CRC: frame has 0xABCD, bytes give 0x[0-9A-F]{4}$/),
      SENTINEL,
    ]);
    const badBytes = bad.reduce((sum, frame) => sum + dataBytes(frame), 0);
    expect(decoder.counters.bytesDiscarded).toBe(badBytes);
  });
});

describe('rfid-reader driver: hostile input', () => {
  it('refuses garbage with a counted reason and still sees the next card, whatever the stream', () => {
    fc.assert(
      fc.property(generatedInputs(rfidDriver), (input) => rfidDriver.check(input) !== undefined),
      {
        numRuns: 200,
      },
    );
  });

  it('reports reads on an antenna the map does not name once, and counts every one', () => {
    const bench = new Bench().connect(0).reads(100, 1000, 100, 200, uid(1)).read(1000, SEAT(2), uid(2));
    const events = bench.run(1000);
    expect(events.filter((event) => event.kind === 'rejected').map((event) => event.reason)).toEqual([
      'reads on antenna 200, which the antenna map does not name, are ignored',
    ]);
    expect(bench.reader.counters()?.refused).toBe(9);
    expect(presence(events)).toEqual([`tag.seen ${uid(2)} seat:2 @1000`]);
  });

  it('loses no valid frame to 10,000 bursts of garbage between the board’s frames', () => {
    // On the host's clock: a virtual one re-sorts its timers at every frame the silence timer is re-armed.
    const bytes = new Subject<Uint8Array>();
    const state = new Subject<LinkState>();
    const reader = rfidReader(
      { bytes, state, write: () => undefined },
      parseRfidReaderConfig({ id: 'rfid-1' }),
    );
    const events: RfidEvent[] = [];
    const subscription = reader.events.subscribe((event) => events.push(event));
    let seq = 0;
    const send = (message: Message) => bytes.next(encodeMessage(message, seq++));
    state.next({ up: true });
    send(HELLO);
    send({ type: 'health', status: 'ok', code: 0, detail: '' });
    const noise = mulberry32(7);
    let garbage = 0;
    for (let burst = 0; burst < 10_000; burst++) {
      const chunk = Buffer.from(Array.from({ length: 1 + (burst % 40) }, () => Math.floor(noise() * 256)));
      garbage += dataBytes(chunk);
      bytes.next(chunk);
      const card = burst % 8;
      send({
        type: 'tag-read',
        antenna: SEAT(1 + card),
        uid: uid(card),
        rssi: -50,
        readerTimeMs: BOOT + burst,
      });
    }
    const counters = reader.counters()?.frames;
    subscription.unsubscribe();
    expect(counters?.framesOk).toBe(seq);
    expect(counters?.droppedFrames).toBe(0);
    expect(counters?.sequenceGaps).toBe(0);
    expect(counters?.bytesDiscarded).toBe(garbage);
    const seen = presence(events).map((line) => line.replace(/ @\d+$/, ''));
    expect(seen.sort()).toEqual(
      Array.from({ length: 8 }, (_, card) => `tag.seen ${uid(card)} seat:${1 + card}`),
    );
  });
});
