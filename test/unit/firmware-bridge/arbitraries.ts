import fc from 'fast-check';
import {
  MAX_ANTENNAS,
  MAX_DETAIL_LENGTH,
  MAX_LABEL_LENGTH,
  MAX_SERIAL_LENGTH,
  type Message,
  type MessageOf,
} from '../../../firmware-bridge/messages.js';

const printableChar = fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code));
const asciiText = (minLength: number, maxLength: number) =>
  fc.string({ unit: printableChar, minLength, maxLength });
const u8 = fc.integer({ min: 0, max: 0xff });
const u16 = fc.integer({ min: 0, max: 0xffff });
const u32 = fc.integer({ min: 0, max: 0xffff_ffff });

export const seqArb = u16;
const uidArb = fc
  .uint8Array({ minLength: 4, maxLength: 10 })
  .map((bytes) => Buffer.from(bytes).toString('hex').toUpperCase());
const antennaMapArb = fc.uniqueArray(fc.record({ index: u8, label: asciiText(1, MAX_LABEL_LENGTH) }), {
  selector: (antenna) => antenna.index,
  maxLength: MAX_ANTENNAS,
});

const helloArb: fc.Arbitrary<MessageOf<'hello'>> = fc
  .record({
    kind: fc.constantFrom('rfid-reader', 'shuffler', 'chip-sensor', 'keypad'),
    firmware: fc.tuple(u8, u8, u8).map((parts) => parts.join('.')),
    serial: asciiText(1, MAX_SERIAL_LENGTH),
    antennas: antennaMapArb,
  })
  .map((hello) => ({
    type: 'hello',
    ...hello,
    antennas: hello.kind === 'rfid-reader' ? hello.antennas : [],
  }));

const commandArb: fc.Arbitrary<MessageOf<'command'>> = fc.oneof(
  antennaMapArb.map((antennas) => ({ type: 'command', command: 'set-antenna-map', antennas }) as const),
  fc
    .integer({ min: 10, max: 10_000 })
    .map((periodMs) => ({ type: 'command', command: 'set-inventory-period', periodMs }) as const),
  fc.constant({ type: 'command', command: 'start-shuffle' } as const),
  fc.constant({ type: 'command', command: 'eject' } as const),
  u8.map((blinkSeconds) => ({ type: 'command', command: 'identify', blinkSeconds }) as const),
);

/** Every message type, with every field over its whole valid range. */
export const messageArb: fc.Arbitrary<Message> = fc.oneof(
  helloArb,
  fc.record({ type: fc.constant('heartbeat'), uptimeMs: u32, framesSent: u32 }),
  fc.record({
    type: fc.constant('health'),
    status: fc.constantFrom('ok', 'degraded', 'fault'),
    code: u16,
    detail: asciiText(0, MAX_DETAIL_LENGTH),
  }),
  fc.record({
    type: fc.constant('tag-read'),
    antenna: u8,
    uid: uidArb,
    rssi: fc.integer({ min: -128, max: 127 }),
    readerTimeMs: u32,
  }),
  fc.record({ type: fc.constant('tag-gone'), antenna: u8, uid: uidArb, readerTimeMs: u32 }),
  fc.record({
    type: fc.constant('round-end'),
    round: u32,
    readerTimeMs: u32,
    antennas: fc.uniqueArray(u8, { maxLength: MAX_ANTENNAS }),
  }),
  commandArb,
  fc.record({ type: fc.constant('ack'), ackSeq: u16 }),
  fc.record({
    type: fc.constant('nack'),
    ackSeq: u16,
    error: fc.constantFrom('unknown-command', 'bad-argument', 'busy', 'unsupported', 'fault'),
  }),
);

/** Every message type but HELLO, which restarts sequence counting. */
export const nonHelloArb = messageArb.filter((message) => message.type !== 'hello');

/** Cuts `bytes` at the given offsets (taken modulo its length), as a serial port might deliver it. */
export function chunked(bytes: Buffer, cuts: readonly number[]): Buffer[] {
  const offsets = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let start = 0;
  for (const offset of [...offsets, bytes.length]) {
    chunks.push(bytes.subarray(start, offset));
    start = offset;
  }
  return chunks;
}
