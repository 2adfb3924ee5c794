import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { encodeMessage, FrameDecoder, frameCrc } from '../../../firmware-bridge/codec.js';
import { type MessageType, messageSchema, typeCode } from '../../../firmware-bridge/messages.js';

const protocol = readFileSync(new URL('../../../firmware-bridge/PROTOCOL.md', import.meta.url), 'utf8');

interface Vector {
  title: string;
  frame: Buffer;
  json?: string;
  reject?: string;
}

/** The `### ` sections after `## Test vectors`, each with a `hex` block and a `json` or `reject` block. */
function readVectors(): Vector[] {
  const [, section = ''] = protocol.split(/^## Test vectors$/m);
  return section
    .split(/^### /m)
    .slice(1)
    .map((text) => {
      const blocks = new Map(
        [...text.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map(([, lang, body]) => [lang, body]),
      );
      const hex = blocks.get('hex') ?? '';
      return {
        title: text.split('\n', 1)[0] ?? '',
        frame: Buffer.from(hex.replace(/\s+/g, ''), 'hex'),
        json: blocks.get('json'),
        reject: blocks.get('reject')?.trim(),
      };
    });
}

const vectors = readVectors();
const accepted = vectors.filter((vector) => vector.json !== undefined);
const rejected = vectors.filter((vector) => vector.reject !== undefined);

describe('PROTOCOL.md test vectors', () => {
  it('are there: at least 6 messages, every type and command, one needing escapes, and rejections', () => {
    expect(accepted.length).toBeGreaterThanOrEqual(6);
    expect(rejected.length).toBeGreaterThanOrEqual(4);
    const messages = accepted.map((vector) => messageSchema.parse(JSON.parse(vector.json ?? '').message));
    expect(new Set(messages.map((message) => message.type))).toEqual(
      new Set([
        'hello',
        'heartbeat',
        'health',
        'tag-read',
        'tag-gone',
        'round-end',
        'command',
        'ack',
        'nack',
      ]),
    );
    expect(
      new Set(messages.flatMap((message) => (message.type === 'command' ? [message.command] : []))),
    ).toEqual(new Set(['set-antenna-map', 'set-inventory-period', 'start-shuffle', 'eject', 'identify']));
    const escapes = accepted.filter((vector) => /db(dc|dd)/.test(vector.frame.toString('hex')));
    expect(escapes.map((vector) => vector.title)).toEqual(
      expect.arrayContaining([
        'TAG_READ with bytes that need escaping',
        'ROUND_END with bytes that need escaping',
      ]),
    );
  });

  it.each(accepted.map((vector) => [vector.title, vector] as const))(
    '%s: encodes to its bytes and back',
    (_, vector) => {
      const { seq, message } = JSON.parse(vector.json ?? '');
      expect(encodeMessage(messageSchema.parse(message), seq).toString('hex')).toBe(
        vector.frame.toString('hex'),
      );
      expect(new FrameDecoder().push(vector.frame)).toEqual([{ ok: true, seq, message, dropped: 0 }]);
    },
  );

  it.each(rejected.map((vector) => [vector.title, vector] as const))(
    '%s: is refused for its reason',
    (_, vector) => {
      const decoder = new FrameDecoder();
      expect(decoder.push(vector.frame)).toMatchObject([{ ok: false, reason: vector.reject }]);
      expect(decoder.counters.framesOk).toBe(0);
    },
  );

  it('the message type table gives the codes the code uses', () => {
    const rows = [...protocol.matchAll(/^\| `0x([0-9A-F]{2})` \| +[A-Z_]+ +\| `([a-z-]+)` +\|/gm)];
    expect(rows).toHaveLength(9);
    for (const [, code, type] of rows)
      expect(typeCode(type as MessageType)).toBe(Number.parseInt(code ?? '', 16));
  });

  it('the CRC is CRC-16/CCITT-FALSE as named: check value 0x29B1', () => {
    expect(protocol).toContain('check value `0x29B1`');
    expect(frameCrc(Buffer.from('123456789', 'ascii'))).toBe(0x29b1);
  });
});
