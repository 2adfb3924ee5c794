import crc16ccitt from 'crc/crc16ccitt';
import { decodePayload, encodePayload, type Message, messageSchema, typeCode } from './messages.js';
import { type SlipChunk, type SlipErrorKind, SlipSplitter, slipEncode } from './slip.js';

export const PROTOCOL_VERSION = 1;
/** Largest frame body (version to CRC, before SLIP escaping) a receiver accepts. */
export const MAX_FRAME_BYTES = 512;
const HEADER_BYTES = 4;
const CRC_BYTES = 2;
const MIN_FRAME_BYTES = HEADER_BYTES + CRC_BYTES;
const HELLO_CODE = typeCode('hello');

/** CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, not reflected, xorout 0x0000), as `crc` computes it. */
export function frameCrc(bytes: Buffer): number {
  return crc16ccitt(bytes);
}

/**
 * One complete SLIP frame (leading END, escaped body, trailing END) carrying `message` with sequence
 * number `seq`. Throws on a message that `messageSchema` rejects or a `seq` outside 0..65535: both
 * are the sender's bugs, never line noise.
 */
export function encodeMessage(message: Message, seq: number): Buffer {
  if (!Number.isInteger(seq) || seq < 0 || seq > 0xffff) throw new RangeError(`seq ${seq} is not a uint16`);
  const { code, payload } = encodePayload(messageSchema.parse(message));
  const body = Buffer.alloc(HEADER_BYTES + payload.length + CRC_BYTES);
  body.writeUInt8(PROTOCOL_VERSION, 0);
  body.writeUInt8(code, 1);
  body.writeUInt16BE(seq, 2);
  payload.copy(body, HEADER_BYTES);
  body.writeUInt16BE(frameCrc(body.subarray(0, -CRC_BYTES)), body.length - CRC_BYTES);
  if (body.length > MAX_FRAME_BYTES) throw new RangeError(`${message.type} frame is ${body.length} bytes`);
  return slipEncode(body);
}

export type RejectionKind =
  | SlipErrorKind
  | 'too-short'
  | 'bad-crc'
  | 'bad-version'
  | 'unknown-type'
  | 'bad-payload';

const REJECTION_KINDS: readonly RejectionKind[] = [
  'too-long',
  'bad-escape',
  'unterminated',
  'too-short',
  'bad-crc',
  'bad-version',
  'unknown-type',
  'bad-payload',
];

export interface DecodedFrame {
  ok: true;
  seq: number;
  message: Message;
  /** Frames missing between the previous accepted frame and this one, judged by sequence number. */
  dropped: number;
}

export interface RejectedFrame {
  ok: false;
  kind: RejectionKind;
  reason: string;
  /** Bytes the frame took on the wire, END delimiters excluded. */
  wireBytes: number;
  /** Present when the frame's header passed its CRC, so a device can NACK the sequence number. */
  seq?: number;
}

export type DecodeResult = DecodedFrame | RejectedFrame;

export interface DecoderCounters {
  framesOk: number;
  rejected: Record<RejectionKind, number>;
  /** Wire bytes of rejected frames, line noise between frames included. */
  bytesDiscarded: number;
  /** Times the sequence number jumped forward. */
  sequenceGaps: number;
  /** Frames lost in those jumps. */
  droppedFrames: number;
  /** Times it went backwards without a HELLO: a duplicate or an unannounced restart. */
  sequenceResets: number;
}

/**
 * Turns a byte stream from one serial link, cut into chunks anyhow, into decoded messages and
 * rejections. It never throws on input and holds at most one frame of `MAX_FRAME_BYTES`.
 */
export class FrameDecoder {
  readonly #slip = new SlipSplitter(MAX_FRAME_BYTES);
  #expectedSeq: number | undefined;
  readonly #counters: DecoderCounters = {
    framesOk: 0,
    rejected: Object.fromEntries(REJECTION_KINDS.map((kind) => [kind, 0])) as Record<RejectionKind, number>,
    bytesDiscarded: 0,
    sequenceGaps: 0,
    droppedFrames: 0,
    sequenceResets: 0,
  };

  push(chunk: Uint8Array): DecodeResult[] {
    return this.#slip.push(chunk).map((slipChunk) => this.#count(this.#decode(slipChunk)));
  }

  /** Ends the frame in progress (the link closed or is being reopened); a partial frame is rejected. */
  flush(): DecodeResult[] {
    return this.#slip.flush().map((slipChunk) => this.#count(this.#decode(slipChunk)));
  }

  /** Bytes of the frame in progress held in memory. */
  get pendingBytes(): number {
    return this.#slip.pendingBytes;
  }

  get counters(): DecoderCounters {
    return structuredClone(this.#counters);
  }

  #decode(slipChunk: SlipChunk): DecodeResult {
    if (!slipChunk.ok) return slipChunk;
    const { body, wireBytes } = slipChunk;
    const reject = (kind: RejectionKind, reason: string, seq?: number): RejectedFrame =>
      seq === undefined
        ? { ok: false, kind, reason, wireBytes }
        : { ok: false, kind, reason, wireBytes, seq };
    if (body.length < MIN_FRAME_BYTES) {
      return reject('too-short', `frame too short: ${body.length} bytes, need ≥ ${MIN_FRAME_BYTES}`);
    }
    const sent = body.readUInt16BE(body.length - CRC_BYTES);
    const computed = frameCrc(body.subarray(0, -CRC_BYTES));
    if (sent !== computed)
      return reject('bad-crc', `bad CRC: frame has 0x${hex16(sent)}, bytes give 0x${hex16(computed)}`);
    const version = body.readUInt8(0);
    if (version !== PROTOCOL_VERSION) return reject('bad-version', `bad version ${version}`);
    const code = body.readUInt8(1);
    const seq = body.readUInt16BE(2);
    // The frame arrived intact, so it counts for the sequence even if its payload is refused.
    const dropped = this.#trackSequence(seq, code === HELLO_CODE);
    const decoded = decodePayload(code, body.subarray(HEADER_BYTES, -CRC_BYTES));
    if (!decoded.ok) return reject(decoded.kind, decoded.reason, seq);
    return { ok: true, seq, message: decoded.message, dropped };
  }

  /** Frames missing before `seq`. A HELLO starts a new count: the device has (re)started. */
  #trackSequence(seq: number, isHello: boolean): number {
    const expected = this.#expectedSeq;
    this.#expectedSeq = (seq + 1) & 0xffff;
    if (expected === undefined || isHello) return 0;
    const ahead = (seq - expected) & 0xffff;
    if (ahead === 0) return 0;
    if (ahead >= 0x8000) {
      this.#counters.sequenceResets++;
      return 0;
    }
    this.#counters.sequenceGaps++;
    this.#counters.droppedFrames += ahead;
    return ahead;
  }

  #count(result: DecodeResult): DecodeResult {
    if (result.ok) {
      this.#counters.framesOk++;
    } else {
      this.#counters.rejected[result.kind]++;
      this.#counters.bytesDiscarded += result.wireBytes;
    }
    return result;
  }
}

function hex16(value: number): string {
  return value.toString(16).toUpperCase().padStart(4, '0');
}
