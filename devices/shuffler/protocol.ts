import crc16ccitt from 'crc/crc16ccitt';
import { z } from 'zod';
import { SHUFFLER_STATES } from '../../src/domain/events.js';
import { cut } from '../../src/problems.js';

/**
 * The shuffler line protocol (PROTOCOL.md): one message per ASCII line, `VERB key=value …*CRC`, where CRC
 * is the CRC-16/CCITT-FALSE of everything before the `*`, in four hex digits. Both ends use this codec.
 */

export const PROTOCOL_VERSION = 1;
/** Longest line a receiver accepts, checksum included, line ending excluded. */
export const MAX_LINE_LENGTH = 4096;
/** A rejection names the first few problems of a line, each cut short: it must fit a log line. */
const MAX_PROBLEMS = 5;
const MAX_PROBLEM = 200;
const MAX_KEY = 40;

/** A field's raw text; a field left out is "missing" rather than zod's type complaint. */
const text = z.string({ error: (issue) => (issue.input === undefined ? 'is missing' : undefined) });
const uint = (max: number) =>
  text
    .regex(/^(0|[1-9][0-9]{0,9})$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().max(max, `must be at most ${max}`));
const token = text.regex(/^[A-Za-z0-9._:/+-]+$/, 'must be letters, digits or . _ : / + -');
/** Comma-separated tag UIDs. Messages name the item, never the UID: it may be a hole card's. */
const uids = text
  .transform((list) => list.split(','))
  .pipe(
    z.array(z.string().regex(/^(?:[0-9A-F]{2}){4,10}$/, 'is not a tag UID (4 to 10 bytes, upper-case hex)')),
  );
const u16 = uint(0xffff);
const command = z.strictObject({ id: u16 });

/** Each verb's fields, in the order they are sent. */
const FIELDS = {
  HELLO: z.strictObject({
    kind: token,
    proto: uint(0xff).refine((proto) => proto === PROTOCOL_VERSION, {
      error: (issue) => `the device speaks protocol ${issue.input}, croupier speaks ${PROTOCOL_VERSION}`,
    }),
    serial: token,
    fw: token,
  }),
  STATUS: z.strictObject({
    gen: u16,
    state: z.enum(SHUFFLER_STATES, `must be one of ${SHUFFLER_STATES.join(', ')}`),
    deck: token.optional(),
    count: uint(9999).optional(),
    faceup: uids.default([]),
    missing: uids.default([]),
    extra: uids.default([]),
    order: uids.optional(),
    code: token.optional(),
  }),
  HB: z.strictObject({ up: uint(2 ** 32 - 1), gen: u16 }),
  ACK: command,
  NAK: z.strictObject({ id: u16, reason: token }),
  IDENT: command,
  QUERY: command,
  SHUFFLE: command,
  EJECT: command,
};

type Fields = typeof FIELDS;
export type Verb = keyof Fields;
export type ShufflerMessage = { [V in Verb]: { verb: V } & z.output<Fields[V]> }[Verb];
export type MessageOf<V extends Verb> = Extract<ShufflerMessage, { verb: V }>;
/** What the host sends; every command carries an `id` the device echoes in its ACK or NAK. */
export type CommandVerb = 'IDENT' | 'QUERY' | 'SHUFFLE' | 'EJECT';

/** Why a receiver rejects a line (PROTOCOL.md "Rejections"). */
export const LINE_REJECTIONS = [
  'too-long',
  'cut-off',
  'not-ascii',
  'no-checksum',
  'bad-checksum',
  'unknown-verb',
  'bad-syntax',
  'bad-field',
] as const;
export type LineRejection = (typeof LINE_REJECTIONS)[number];

export type ParsedLine =
  | { ok: true; message: ShufflerMessage }
  | { ok: false; kind: LineRejection; reason: string };

export function lineChecksum(body: string): string {
  return crc16ccitt(Buffer.from(body, 'latin1')).toString(16).toUpperCase().padStart(4, '0');
}

/**
 * The line carrying `message`, CRLF included. Throws on a message the receiver would refuse (a sender's
 * bug, never line noise); the error names the field, not its value.
 */
export function encodeLine(message: ShufflerMessage): string {
  const { verb, ...values } = message;
  const parts: string[] = [verb];
  for (const key of Object.keys(FIELDS[verb].shape)) {
    const value: unknown = values[key as keyof typeof values];
    if (value === undefined || (Array.isArray(value) && value.length === 0)) continue;
    parts.push(`${key}=${Array.isArray(value) ? value.join(',') : String(value)}`);
  }
  const body = parts.join(' ');
  const line = `${body}*${lineChecksum(body)}`;
  const parsed = parseLine(line);
  if (!parsed.ok) throw new RangeError(`cannot send ${verb}: ${parsed.reason}`);
  return `${line}\r\n`;
}

/** Checks and decodes one line (its ending already cut off); never throws. */
export function parseLine(line: string): ParsedLine {
  if (line.length > MAX_LINE_LENGTH) {
    return rejected('too-long', `a line of ${line.length} characters, over ${MAX_LINE_LENGTH}`);
  }
  if (!/^[\x20-\x7e]*$/.test(line)) return rejected('not-ascii', 'a byte outside printable ASCII');
  const star = line.lastIndexOf('*');
  const sent = line.slice(star + 1);
  if (star < 0 || !/^[0-9A-Fa-f]{4}$/.test(sent)) return rejected('no-checksum', 'no *CRC at the end');
  const body = line.slice(0, star);
  const computed = lineChecksum(body);
  if (sent.toUpperCase() !== computed) {
    return rejected('bad-checksum', `bad checksum: the line has ${sent}, its text gives ${computed}`);
  }
  const [verb = '', ...pairs] = body.split(' ');
  if (!Object.hasOwn(FIELDS, verb)) {
    return rejected('unknown-verb', `unknown verb ${JSON.stringify(verb.slice(0, 16))}`);
  }
  const values: Record<string, string> = {};
  for (const pair of pairs) {
    const match = /^([a-z]+)=([^ =*]+)$/.exec(pair);
    if (!match?.[1] || match[2] === undefined)
      return rejected('bad-syntax', `${verb}: a field is not key=value`);
    if (Object.hasOwn(values, match[1]))
      return rejected('bad-syntax', `${verb}: field ${cut(match[1], MAX_KEY)} given twice`);
    values[match[1]] = match[2];
  }
  const result = FIELDS[verb as Verb].safeParse(values);
  if (!result.success) {
    const { issues } = result.error;
    const problems = issues
      .slice(0, MAX_PROBLEMS)
      .map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')} ${issue.message}` : issue.message))
      .map((problem) => cut(problem, MAX_PROBLEM));
    if (issues.length > MAX_PROBLEMS) problems.push(`and ${issues.length - MAX_PROBLEMS} more`);
    return rejected('bad-field', `${verb}: ${problems.join('; ')}`);
  }
  return { ok: true, message: { verb, ...result.data } as ShufflerMessage };
}

function rejected(kind: LineRejection, reason: string): ParsedLine {
  return { ok: false, kind, reason };
}
