import type { DISPLAY_ACTIONS, FLOOR_ACTIONS } from '../src/display/protocol.js';
import { hostileJsonText } from './json.js';
import { ascii, between, type Mutation, mutate, pick, type Rand, randomBytes } from './mutate.js';

/**
 * Hostile WebSocket frames (RFC 6455) as a browser tab or a script on the casino network could send
 * them to a server: the display's touches sent as JSON over the socket (wrong types, unknown keys, broken
 * JSON, invalid UTF-8), frames over the size limit or declaring absurd lengths, unmasked frames, reserved
 * bits and opcodes, control frames too long or fragmented, continuations of nothing, close frames with
 * invalid codes, bytes that are no frame, and floods of any of them.
 */

export const OPCODES = { continuation: 0, text: 1, binary: 2, close: 8, ping: 9, pong: 10 } as const;

export interface Frame {
  opcode: number;
  payload: Buffer;
  fin?: boolean;
  /** The three reserved bits (no extension is negotiated: any of them set is a protocol error). */
  rsv?: number;
  /** Client frames must be masked; an unmasked one is a protocol error. */
  mask?: Buffer | null;
  /** The length the header declares, when it lies about the payload. */
  declared?: number;
}

/** A frame's bytes, as RFC 6455 section 5.2 lays them out. */
export function frameBytes({ opcode, payload, fin = true, rsv = 0, mask, declared }: Frame): Buffer {
  const length = declared ?? payload.length;
  const head = [((fin ? 1 : 0) << 7) | ((rsv & 7) << 4) | (opcode & 15)];
  const masked = mask !== null ? 0x80 : 0;
  let extended = Buffer.alloc(0);
  if (length < 126) head.push(masked | length);
  else if (length < 0x10000) {
    head.push(masked | 126);
    extended = Buffer.alloc(2);
    extended.writeUInt16BE(length);
  } else {
    head.push(masked | 127);
    extended = Buffer.alloc(8);
    extended.writeBigUInt64BE(BigInt(length));
  }
  const key = mask === null ? Buffer.alloc(0) : (mask ?? Buffer.from([0x37, 0xfa, 0x21, 0x3d]));
  const body = Buffer.from(payload);
  for (let i = 0; i < body.length && key.length === 4; i++) body[i] = (body[i] ?? 0) ^ (key[i % 4] ?? 0);
  return Buffer.concat([Buffer.from(head), extended, key, body]);
}

/**
 * The display's touches and the floor's actions (src/display/protocol.ts), as a client might (wrongly) send
 * them on the socket: named as the protocol names them, with the bodies their POSTs take.
 */
const ACTIONS: {
  type: keyof typeof DISPLAY_ACTIONS | keyof typeof FLOOR_ACTIONS;
  [field: string]: string;
}[] = [
  { type: 'confirm' },
  { type: 'callFloor' },
  { type: 'nextHand' },
  { type: 'signIn', pin: '2468' },
  { type: 'decide', token: 'tok', decision: 'void' },
  { type: 'signOut', token: 'tok' },
  { type: 'recentHands', token: 'tok' },
];

const INVALID_UTF8 = ascii('\xff', '\xc3\x28', '\xed\xa0\x80', '\xf4\x90\x80\x80', '\xe2\x82', '\xc0\xaf');

/** A close frame's payload: a status code (valid or not) and a reason (maybe invalid UTF-8), or one byte. */
function closePayload(rand: Rand): Buffer {
  if (rand() < 0.1) return randomBytes(rand, 1);
  const code = Buffer.alloc(2);
  code.writeUInt16BE(pick(rand, [1000, 1001, 1003, 1005, 1006, 1015, 0, 999, 2999, 4000, 5000, 65535]));
  return Buffer.concat([code, rand() < 0.3 ? pick(rand, INVALID_UTF8) : Buffer.from('bye')]);
}

/** A payload for a data frame: a touch as JSON (hostile or not), invalid UTF-8, or more than the limit. */
function dataPayload(rand: Rand): Buffer {
  const roll = rand();
  if (roll < 0.6) return hostileJsonText(rand, ACTIONS);
  if (roll < 0.75) {
    const text = Buffer.from(JSON.stringify(pick(rand, ACTIONS)));
    const at = between(rand, 0, text.length);
    return Buffer.concat([text.subarray(0, at), pick(rand, INVALID_UTF8), text.subarray(at)]);
  }
  // Past the display's limit (4 KiB): by a byte, by a little, now and then past 64 KiB (a 64-bit length).
  if (roll < 0.85)
    return Buffer.alloc(rand() < 0.9 ? between(rand, 4097, 5000) : between(rand, 65_536, 70_000), 0x61);
  return randomBytes(rand, between(rand, 0, 200));
}

/** One frame, hostile in one way or another (or valid: a ping, a touch as text). */
function hostileFrame(rand: Rand): Frame {
  const mask = randomBytes(rand, 4);
  const roll = rand();
  if (roll < 0.35) return { opcode: OPCODES.text, payload: dataPayload(rand), mask };
  if (roll < 0.42) return { opcode: OPCODES.binary, payload: dataPayload(rand), mask };
  if (roll < 0.5)
    return {
      opcode: pick(rand, [OPCODES.ping, OPCODES.pong]),
      payload: randomBytes(rand, between(rand, 0, 125)),
      mask,
    };
  if (roll < 0.55) return { opcode: OPCODES.close, payload: closePayload(rand), mask };
  if (roll < 0.6) return { opcode: OPCODES.ping, payload: randomBytes(rand, between(rand, 126, 300)), mask };
  if (roll < 0.65) return { opcode: OPCODES.ping, payload: Buffer.from('x'), fin: false, mask };
  if (roll < 0.7)
    return { opcode: pick(rand, [3, 4, 5, 6, 7, 11, 12, 13, 14, 15]), payload: dataPayload(rand), mask };
  if (roll < 0.75)
    return { opcode: OPCODES.text, payload: dataPayload(rand), rsv: between(rand, 1, 7), mask };
  if (roll < 0.8) return { opcode: OPCODES.text, payload: dataPayload(rand), mask: null };
  if (roll < 0.85) return { opcode: OPCODES.continuation, payload: dataPayload(rand), mask };
  if (roll < 0.9) {
    // A length far past the payload: the server must not wait for, or allocate, 2^53 bytes.
    const declared = pick(rand, [4097, 70_000, 2 ** 32, 2 ** 53 - 1]);
    return { opcode: OPCODES.text, payload: randomBytes(rand, between(rand, 0, 64)), declared, mask };
  }
  // A text message in fragments: the first unfinished, the next continuing it (or not).
  return { opcode: OPCODES.text, payload: dataPayload(rand), fin: false, mask };
}

const SEED_FRAMES = ACTIONS.map((action) =>
  frameBytes({ opcode: OPCODES.text, payload: Buffer.from(JSON.stringify(action)) }),
);
const FRAME_TOKENS = [
  ...SEED_FRAMES,
  frameBytes({ opcode: OPCODES.ping, payload: Buffer.alloc(0) }),
  frameBytes({ opcode: OPCODES.continuation, payload: Buffer.from('}') }),
  Buffer.from([0x81, 0xff, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]),
  Buffer.from([0x88, 0x80]),
  Buffer.from('GET / HTTP/1.1\r\n\r\n'),
];
const FLOOD_BYTES = 256 * 1024;
const MUTATION: Mutation = { seeds: SEED_FRAMES, tokens: FRAME_TOKENS, maxBytes: 80 * 1024 };

/**
 * What a hostile client writes on its socket, chunk by chunk: a few frames, now and then a flood of
 * hundreds (pings, touches, fragments), a valid frame mutated byte by byte, or bytes that are no frame.
 */
export function hostileChunks(rand: Rand): Buffer[] {
  const roll = rand();
  if (roll < 0.15) return [mutate(rand, MUTATION)];
  if (roll < 0.2) return [randomBytes(rand, between(rand, 1, 512))];
  if (roll < 0.25) {
    const frame = frameBytes(hostileFrame(rand));
    // A flood: one frame many times over (256 KiB at most), in one write or in a few.
    const times = Math.max(2, Math.min(between(rand, 100, 2000), Math.floor(FLOOD_BYTES / frame.length)));
    const flood = Buffer.concat(Array<Buffer>(times).fill(frame));
    return rand() < 0.5 ? [flood] : [flood.subarray(0, 7), flood.subarray(7, 9), flood.subarray(9)];
  }
  return Array.from({ length: between(rand, 1, 4) }, () => frameBytes(hostileFrame(rand)));
}
