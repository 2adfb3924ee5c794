import { isDeepStrictEqual } from 'node:util';
import {
  type DecodeResult,
  encodeMessage,
  FrameDecoder,
  frameCrc,
  MAX_FRAME_BYTES,
  PROTOCOL_VERSION,
} from '../firmware-bridge/codec.js';
import { type Message, type MessageOf, typeCode } from '../firmware-bridge/messages.js';
import { END, ESC, ESC_END, ESC_ESC, slipEncode } from '../firmware-bridge/slip.js';
import { clearReason, holds, type Target } from './harness.js';
import { between, type Mutation, mutate, pick, type Rand, randomBytes } from './mutate.js';

/**
 * The reader board's frame codec (firmware-bridge/codec.ts): SLIP framing, CRC-16, header and payload
 * decoding. Inputs are byte streams: mutated frames, frames with a correct CRC around a hostile payload,
 * oversized frames, line noise and floods.
 */

export const BOARD_HELLO: Message = {
  type: 'hello',
  kind: 'rfid-reader',
  firmware: '1.2.3',
  serial: 'RB-0042',
  antennas: [],
};

/** One message of every type, fields at their edges, as seeds to mutate. */
export const SAMPLE_MESSAGES: readonly Message[] = [
  BOARD_HELLO,
  {
    type: 'hello',
    kind: 'rfid-reader',
    firmware: '255.0.9',
    serial: 'X',
    antennas: [
      { index: 0, label: 'seat:1' },
      { index: 255, label: 'muck' },
    ],
  },
  { type: 'hello', kind: 'shuffler', firmware: '2.0.0', serial: 'SH-7', antennas: [] },
  { type: 'heartbeat', uptimeMs: 4_294_967_295, framesSent: 12 },
  { type: 'health', status: 'degraded', code: 7, detail: 'antenna 3 weak' },
  { type: 'tag-read', antenna: 2, uid: '04A1B2C3', rssi: -128, readerTimeMs: 1000 },
  { type: 'tag-read', antenna: 12, uid: '0102030405060708090A', rssi: 127, readerTimeMs: 0 },
  { type: 'tag-gone', antenna: 12, uid: '04A1B2C3', readerTimeMs: 2000 },
  { type: 'round-end', round: 4_294_967_295, readerTimeMs: 2100, antennas: [0, 1, 2, 10, 11, 12] },
  { type: 'round-end', round: 0, readerTimeMs: 0, antennas: [] },
  { type: 'command', command: 'set-antenna-map', antennas: [{ index: 1, label: 'board' }] },
  { type: 'command', command: 'set-inventory-period', periodMs: 10_000 },
  { type: 'command', command: 'identify', blinkSeconds: 3 },
  { type: 'ack', ackSeq: 65_535 },
  { type: 'nack', ackSeq: 1, error: 'busy' },
];

const TYPE_CODES = [...new Set(SAMPLE_MESSAGES.map((message) => typeCode(message.type)))];

const frames = SAMPLE_MESSAGES.map((message, seq) => encodeMessage(message, seq));

/** The most a serial port read delivers at once (node-serialport reads 64 KiB at a time). */
const MAX_CHUNK_BYTES = 65_536;

const MUTATION: Mutation = {
  seeds: [...frames, Buffer.concat(frames.slice(3, 8))],
  tokens: [[END], [ESC], [ESC, ESC_END], [ESC, ESC_ESC], [ESC, END], [END, END]].map((bytes) =>
    Buffer.from(bytes),
  ),
  maxBytes: 8 * MAX_FRAME_BYTES,
};

/** A frame whose CRC is right around a header and payload of chance: the payload decoder's inputs. */
function intactFrame(rand: Rand): Buffer {
  const payload = randomBytes(rand, rand() < 0.05 ? between(rand, 500, 700) : between(rand, 0, 40));
  const body = Buffer.alloc(4 + payload.length + 2);
  body[0] = rand() < 0.9 ? PROTOCOL_VERSION : between(rand, 0, 255);
  body[1] = rand() < 0.9 ? pick(rand, TYPE_CODES) : between(rand, 0, 255);
  body.writeUInt16BE(between(rand, 0, 0xffff), 2);
  payload.copy(body, 4);
  body.writeUInt16BE(frameCrc(body.subarray(0, -2)), body.length - 2);
  return slipEncode(body);
}

/** A byte stream as a hostile or broken reader board might send it. */
export function hostileStream(rand: Rand): Buffer {
  const roll = rand();
  if (roll < 0.55) return mutate(rand, MUTATION);
  if (roll < 0.8) {
    const parts = Array.from({ length: between(rand, 1, 4) }, () =>
      rand() < 0.7 ? intactFrame(rand) : randomBytes(rand, between(rand, 0, 24)),
    );
    return Buffer.concat(parts);
  }
  if (roll < 0.98) return randomBytes(rand, between(rand, 1, 2 * MAX_FRAME_BYTES));
  // A flood: one frame, valid or not, many times over, in one chunk as a USB read may bring it.
  const frame = rand() < 0.5 ? pick(rand, frames) : mutate(rand, MUTATION);
  const flood = Buffer.concat(Array<Buffer>(between(rand, 50, 400)).fill(frame));
  return flood.subarray(0, MAX_CHUNK_BYTES);
}

/** Bytes between END delimiters: each one lands in a decoded frame or in the discarded count. */
export function dataBytes(stream: Uint8Array): number {
  let count = 0;
  for (const byte of stream) if (byte !== END) count++;
  return count;
}

export const SENTINEL: MessageOf<'tag-read'> = {
  type: 'tag-read',
  antenna: 0,
  uid: 'C0DBC0DB',
  rssi: -40,
  readerTimeMs: 123_456,
};

const SENTINEL_FRAME = encodeMessage(SENTINEL, 7);

/** Wire bytes of a frame carrying `message`: what encoding it takes, remembered for floods. */
const wireBytes = new Map<string, number>();
function wireBytesOf(message: Message, seq: number): number {
  const key = `${seq} ${JSON.stringify(message)}`;
  let bytes = wireBytes.get(key);
  if (bytes === undefined) {
    if (wireBytes.size > 10_000) wireBytes.clear();
    // The codec is canonical: a decoded frame took on the wire what encoding its message takes.
    bytes = encodeMessage(message, seq).length - 2;
    wireBytes.set(key, bytes);
  }
  return bytes;
}

export interface FrameInput {
  stream: Buffer;
  /** Where the serial port cuts the stream into two chunks. */
  cut: number;
}

export const hexShow = (bytes: Uint8Array): string =>
  `${bytes.length} bytes ${Buffer.from(bytes.subarray(0, 96)).toString('hex')}${bytes.length > 96 ? '…' : ''}`;

export const rfidFrames: Target<FrameInput> = {
  name: 'rfid-frames',
  family: 'rfid-reader',
  generate(rand) {
    const stream = hostileStream(rand);
    return { stream, cut: between(rand, 0, stream.length) };
  },
  check({ stream, cut }) {
    const decoder = new FrameDecoder();
    const results: DecodeResult[] = [];
    for (const chunk of [stream.subarray(0, cut), stream.subarray(cut), SENTINEL_FRAME]) {
      for (const result of decoder.push(chunk)) results.push(result);
      holds(decoder.pendingBytes <= MAX_FRAME_BYTES, `holds ${decoder.pendingBytes} bytes of one frame`);
    }
    const last = results.pop();
    holds(last?.ok === true && isDeepStrictEqual(last.message, SENTINEL), 'a valid frame after it was lost');
    let decodedBytes = 0;
    for (const result of results) {
      if (result.ok) decodedBytes += wireBytesOf(result.message, result.seq);
      else clearReason(result.reason, `frame refused as ${result.kind}`);
    }
    const { bytesDiscarded, rejected, framesOk } = decoder.counters;
    holds(
      decodedBytes + bytesDiscarded === dataBytes(stream),
      `${dataBytes(stream)} bytes came, ${decodedBytes} decoded and ${bytesDiscarded} counted as discarded`,
    );
    const refusals = results.filter((result) => !result.ok).length;
    holds(
      Object.values(rejected).reduce((sum, n) => sum + n, 0) === refusals &&
        framesOk === results.length - refusals + 1,
      'the counters disagree with the results',
    );
    return refusals > 0 ? 'refused' : 'accepted';
  },
  show: ({ stream, cut }) => `${hexShow(stream)} cut at ${cut}`,
};
