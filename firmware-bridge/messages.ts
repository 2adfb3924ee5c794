import { z } from 'zod';
import { PayloadError, PayloadReader, PayloadWriter } from './payload-bytes.js';
import { hexByte } from './slip.js';

/** A one-byte enumeration: JSON names on one side, wire codes on the other. */
function codeTable<V extends string>(what: string, codes: Record<V, number>) {
  const byCode = new Map<number, V>(Object.entries<number>(codes).map(([value, code]) => [code, value as V]));
  return {
    values: Object.keys(codes) as V[],
    write: (out: PayloadWriter, value: V): void => out.u8(codes[value]),
    read: (input: PayloadReader): V => {
      const code = input.u8();
      return byCode.get(code) ?? input.fail(`unknown ${what} 0x${hexByte(code)}`);
    },
  };
}

const DEVICE_KINDS = codeTable('device kind', {
  'rfid-reader': 0x01,
  shuffler: 0x02,
  'chip-sensor': 0x03,
  keypad: 0x04,
});
const HEALTH_STATUSES = codeTable('health status', { ok: 0x00, degraded: 0x01, fault: 0x02 });
const COMMANDS = codeTable('command', {
  'set-antenna-map': 0x01,
  'set-inventory-period': 0x02,
  'start-shuffle': 0x03,
  eject: 0x04,
  identify: 0x05,
});
const NACK_ERRORS = codeTable('NACK error', {
  'unknown-command': 0x01,
  'bad-argument': 0x02,
  busy: 0x03,
  unsupported: 0x04,
  fault: 0x05,
});

// Field limits keep every valid message inside one 512-byte frame (see PROTOCOL.md).
export const MAX_ANTENNAS = 24;
export const MAX_LABEL_LENGTH = 16;
export const MAX_SERIAL_LENGTH = 32;
export const MAX_DETAIL_LENGTH = 64;

const u8 = z.number().int().min(0).max(0xff);
const u16 = z.number().int().min(0).max(0xffff);
const u32 = z.number().int().min(0).max(0xffff_ffff);
const i8 = z.number().int().min(-128).max(127);
const asciiText = (min: number, max: number) =>
  z
    .string()
    .min(min)
    .max(max)
    .regex(/^[\x20-\x7e]*$/, 'printable ASCII only');
const versionPart = '(0|[1-9][0-9]{0,2})';
const firmwareVersion = z
  .string()
  .regex(new RegExp(`^${versionPart}\\.${versionPart}\\.${versionPart}$`), 'major.minor.patch')
  .refine((version) => version.split('.').every((part) => Number(part) <= 0xff), 'each part at most 255');
/** Upper-case hex, as the deck registry keys tags. */
const tagUid = z.string().regex(/^(?:[0-9A-F]{2}){4,10}$/, '4 to 10 bytes in upper-case hex');
/** Whether no antenna index appears twice: a board reads each of its antennas once per round. */
const indicesUnique = (indices: readonly number[]): boolean => new Set(indices).size === indices.length;
const antennaMap = z
  .array(z.strictObject({ index: u8, label: asciiText(1, MAX_LABEL_LENGTH) }))
  .max(MAX_ANTENNAS)
  .refine((map) => indicesUnique(map.map((antenna) => antenna.index)), 'antenna indices repeat');
/** The antennas an inventory round covered, by index alone. */
const roundAntennas = z.array(u8).max(MAX_ANTENNAS).refine(indicesUnique, 'antenna indices repeat');

const helloSchema = z
  .strictObject({
    type: z.literal('hello'),
    kind: z.enum(DEVICE_KINDS.values),
    firmware: firmwareVersion,
    serial: asciiText(1, MAX_SERIAL_LENGTH),
    antennas: antennaMap,
  })
  .refine((hello) => hello.kind === 'rfid-reader' || hello.antennas.length === 0, {
    message: 'only an rfid-reader has antennas',
    path: ['antennas'],
  });
const heartbeatSchema = z.strictObject({ type: z.literal('heartbeat'), uptimeMs: u32, framesSent: u32 });
const healthSchema = z.strictObject({
  type: z.literal('health'),
  status: z.enum(HEALTH_STATUSES.values),
  code: u16,
  detail: asciiText(0, MAX_DETAIL_LENGTH),
});
const tagReadSchema = z.strictObject({
  type: z.literal('tag-read'),
  antenna: u8,
  uid: tagUid,
  rssi: i8,
  readerTimeMs: u32,
});
const tagGoneSchema = z.strictObject({
  type: z.literal('tag-gone'),
  antenna: u8,
  uid: tagUid,
  readerTimeMs: u32,
});
const roundEndSchema = z.strictObject({
  type: z.literal('round-end'),
  round: u32,
  readerTimeMs: u32,
  antennas: roundAntennas,
});
const command = z.literal('command');
const commandSchema = z.discriminatedUnion('command', [
  z.strictObject({ type: command, command: z.literal('set-antenna-map'), antennas: antennaMap }),
  z.strictObject({
    type: command,
    command: z.literal('set-inventory-period'),
    periodMs: z.number().int().min(10).max(10_000),
  }),
  z.strictObject({ type: command, command: z.literal('start-shuffle') }),
  z.strictObject({ type: command, command: z.literal('eject') }),
  z.strictObject({ type: command, command: z.literal('identify'), blinkSeconds: u8 }),
]);
const ackSchema = z.strictObject({ type: z.literal('ack'), ackSeq: u16 });
const nackSchema = z.strictObject({
  type: z.literal('nack'),
  ackSeq: u16,
  error: z.enum(NACK_ERRORS.values),
});

/** The JSON form of every message, as tests, simulators and the MQTT bridge exchange them. */
export const messageSchema = z.discriminatedUnion('type', [
  helloSchema,
  heartbeatSchema,
  healthSchema,
  tagReadSchema,
  tagGoneSchema,
  roundEndSchema,
  commandSchema,
  ackSchema,
  nackSchema,
]);

export type Message = z.infer<typeof messageSchema>;
export type MessageType = Message['type'];
export type MessageOf<T extends MessageType> = Extract<Message, { type: T }>;
export type DeviceKind = MessageOf<'hello'>['kind'];
export type Command = MessageOf<'command'>['command'];
type AntennaMap = MessageOf<'hello'>['antennas'];

/** How one message type's payload is laid out on the wire. */
interface PayloadCodec<M extends Message> {
  /** The name PROTOCOL.md and rejection reasons use. */
  readonly name: string;
  readonly code: number;
  encode(message: M, out: PayloadWriter): void;
  /** Reads the fields; the result is checked against `messageSchema` afterwards. */
  decode(input: PayloadReader): M;
}

function writeAntennaMap(out: PayloadWriter, antennas: AntennaMap): void {
  out.u8(antennas.length);
  for (const antenna of antennas) {
    out.u8(antenna.index);
    out.shortText(antenna.label);
  }
}

function readAntennaMap(input: PayloadReader): AntennaMap {
  return Array.from({ length: input.u8() }, () => ({ index: input.u8(), label: input.shortText() }));
}

/** Antenna, UID length and UID: the start of TAG_READ and TAG_GONE. */
function readTag(input: PayloadReader, bytesAfterUid: number): { antenna: number; uid: string } {
  input.require(2 + 4 + bytesAfterUid);
  const antenna = input.u8();
  const uidLength = input.u8();
  if (uidLength < 4 || uidLength > 10) input.fail(`UID length ${uidLength}, must be 4 to 10`);
  input.require(2 + uidLength + bytesAfterUid);
  return { antenna, uid: input.bytes(uidLength).toString('hex').toUpperCase() };
}

function writeTag(out: PayloadWriter, antenna: number, uid: string): void {
  out.u8(antenna);
  out.u8(uid.length / 2);
  out.bytes(Buffer.from(uid, 'hex'));
}

const PAYLOAD_CODECS: { readonly [T in MessageType]: PayloadCodec<MessageOf<T>> } = {
  hello: {
    name: 'HELLO',
    code: 0x01,
    encode(hello, out) {
      DEVICE_KINDS.write(out, hello.kind);
      for (const part of hello.firmware.split('.')) out.u8(Number(part));
      out.shortText(hello.serial);
      writeAntennaMap(out, hello.antennas);
    },
    decode(input) {
      input.require(1 + 3 + 1 + 1 + 1);
      const kind = DEVICE_KINDS.read(input);
      const firmware = [input.u8(), input.u8(), input.u8()].join('.');
      return { type: 'hello', kind, firmware, serial: input.shortText(), antennas: readAntennaMap(input) };
    },
  },
  heartbeat: {
    name: 'HEARTBEAT',
    code: 0x02,
    encode(heartbeat, out) {
      out.u32(heartbeat.uptimeMs);
      out.u32(heartbeat.framesSent);
    },
    decode(input) {
      input.require(8);
      return { type: 'heartbeat', uptimeMs: input.u32(), framesSent: input.u32() };
    },
  },
  health: {
    name: 'HEALTH',
    code: 0x03,
    encode(health, out) {
      HEALTH_STATUSES.write(out, health.status);
      out.u16(health.code);
      out.shortText(health.detail);
    },
    decode(input) {
      input.require(1 + 2 + 1);
      return {
        type: 'health',
        status: HEALTH_STATUSES.read(input),
        code: input.u16(),
        detail: input.shortText(),
      };
    },
  },
  'tag-read': {
    name: 'TAG_READ',
    code: 0x10,
    encode(read, out) {
      writeTag(out, read.antenna, read.uid);
      out.i8(read.rssi);
      out.u32(read.readerTimeMs);
    },
    decode(input) {
      const tag = readTag(input, 1 + 4);
      return { type: 'tag-read', ...tag, rssi: input.i8(), readerTimeMs: input.u32() };
    },
  },
  'tag-gone': {
    name: 'TAG_GONE',
    code: 0x11,
    encode(gone, out) {
      writeTag(out, gone.antenna, gone.uid);
      out.u32(gone.readerTimeMs);
    },
    decode(input) {
      const tag = readTag(input, 4);
      return { type: 'tag-gone', ...tag, readerTimeMs: input.u32() };
    },
  },
  'round-end': {
    name: 'ROUND_END',
    code: 0x12,
    encode(end, out) {
      out.u32(end.round);
      out.u32(end.readerTimeMs);
      out.u8(end.antennas.length);
      for (const antenna of end.antennas) out.u8(antenna);
    },
    decode(input) {
      input.require(4 + 4 + 1);
      const round = input.u32();
      const readerTimeMs = input.u32();
      const count = input.u8();
      // Named in full, so a cut-off list says how long it should have been.
      input.require(4 + 4 + 1 + count);
      const antennas = Array.from({ length: count }, () => input.u8());
      return { type: 'round-end', round, readerTimeMs, antennas };
    },
  },
  command: {
    name: 'COMMAND',
    code: 0x20,
    encode(message, out) {
      COMMANDS.write(out, message.command);
      switch (message.command) {
        case 'set-antenna-map':
          return writeAntennaMap(out, message.antennas);
        case 'set-inventory-period':
          return out.u16(message.periodMs);
        case 'identify':
          return out.u8(message.blinkSeconds);
        case 'start-shuffle':
        case 'eject':
          return;
      }
    },
    decode(input) {
      input.require(1);
      const type = 'command';
      const command = COMMANDS.read(input);
      switch (command) {
        case 'set-antenna-map':
          return { type, command, antennas: readAntennaMap(input) };
        case 'set-inventory-period':
          return { type, command, periodMs: input.u16() };
        case 'identify':
          return { type, command, blinkSeconds: input.u8() };
        case 'start-shuffle':
        case 'eject':
          return { type, command };
      }
    },
  },
  ack: {
    name: 'ACK',
    code: 0x21,
    encode(ack, out) {
      out.u16(ack.ackSeq);
    },
    decode(input) {
      input.require(2);
      return { type: 'ack', ackSeq: input.u16() };
    },
  },
  nack: {
    name: 'NACK',
    code: 0x22,
    encode(nack, out) {
      out.u16(nack.ackSeq);
      NACK_ERRORS.write(out, nack.error);
    },
    decode(input) {
      input.require(3);
      return { type: 'nack', ackSeq: input.u16(), error: NACK_ERRORS.read(input) };
    },
  },
};

// Method parameters are bivariant, so each type's codec serves as a codec of any message.
const CODECS: readonly PayloadCodec<Message>[] = Object.values(PAYLOAD_CODECS);
const CODECS_BY_CODE = new Map(CODECS.map((codec) => [codec.code, codec]));

export function typeCode(type: MessageType): number {
  return PAYLOAD_CODECS[type].code;
}

/** The message's type code and payload bytes; the message must already satisfy `messageSchema`. */
export function encodePayload(message: Message): { code: number; payload: Buffer } {
  const codec: PayloadCodec<Message> = PAYLOAD_CODECS[message.type];
  const out = new PayloadWriter();
  codec.encode(message, out);
  return { code: codec.code, payload: out.toBuffer() };
}

export type PayloadDecodeResult =
  | { ok: true; message: Message }
  | { ok: false; kind: 'unknown-type' | 'bad-payload'; reason: string };

export function decodePayload(code: number, payload: Buffer): PayloadDecodeResult {
  const codec = CODECS_BY_CODE.get(code);
  if (!codec) return { ok: false, kind: 'unknown-type', reason: `unknown message type 0x${hexByte(code)}` };
  const input = new PayloadReader(codec.name, payload);
  let fields: Message;
  try {
    fields = codec.decode(input);
    input.end();
  } catch (error) {
    if (!(error instanceof PayloadError)) throw error;
    return { ok: false, kind: 'bad-payload', reason: error.message };
  }
  const checked = messageSchema.safeParse(fields);
  if (checked.success) return { ok: true, message: checked.data };
  const issues = checked.error.issues.map(
    (issue) => `${issue.path.join('.') || 'message'}: ${issue.message}`,
  );
  return { ok: false, kind: 'bad-payload', reason: `bad ${codec.name} payload: ${issues.join('; ')}` };
}
