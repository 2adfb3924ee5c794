import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { displayWs, POSTS_ONLY, screenAnswer, touchTaken } from '../../../fuzz/display-ws.js';
import { generatedInputs } from '../../../fuzz/harness.js';
import { frameBytes, OPCODES } from '../../../fuzz/ws-frames.js';

const text = (payload: string | Buffer) =>
  frameBytes({ opcode: OPCODES.text, payload: Buffer.from(payload) });
const CONFIRM = JSON.stringify({ type: 'confirm' });

describe('the display’s WebSocket: hostile frames', () => {
  it('refuses every generated input with a protocol close code, or waits for the rest of a frame; takes the next touch', async () => {
    await fc.assert(
      fc.asyncProperty(generatedInputs(displayWs), async (input) => {
        await displayWs.check(input);
      }),
      { numRuns: 300 },
    );
  });

  it('closes a screen that sends a touch over the socket (1003, naming why), and takes the touch as a POST', async () => {
    expect(await screenAnswer([text(CONFIRM)])).toEqual({
      closed: { code: 1003, reason: POSTS_ONLY },
      messages: 1,
      pongs: 0,
      refusals: [],
      counted: 1,
    });
    expect(await touchTaken()).toBe(true);
  });

  it('refuses invalid UTF-8, a frame over 4 KiB, an unmasked frame and an unknown opcode, naming the error', async () => {
    const refusals = [
      [text(Buffer.from([0x7b, 0xff, 0x7d])), 1007, 'WS_ERR_INVALID_UTF8'],
      [text('x'.repeat(4097)), 1009, 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH'],
      [
        frameBytes({ opcode: OPCODES.text, payload: Buffer.from(CONFIRM), mask: null }),
        1002,
        'WS_ERR_EXPECTED_MASK',
      ],
      [frameBytes({ opcode: 3, payload: Buffer.from(CONFIRM) }), 1002, 'WS_ERR_INVALID_OPCODE'],
      // A length of 2^53 - 1 declared with 10 bytes sent: refused at the header, nothing allocated.
      [
        frameBytes({ opcode: OPCODES.text, payload: Buffer.alloc(10), declared: 2 ** 53 - 1 }),
        1009,
        'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH',
      ],
    ] as const;
    for (const [frame, code, error] of refusals) {
      expect(await screenAnswer([frame])).toEqual({
        closed: { code, reason: '' },
        messages: 0,
        pongs: 0,
        refusals: [error],
        counted: 1,
      });
    }
  });

  it('answers pings, cuts a ping flood (ws: 60 pongs pending at most), and closes a flood of touches', async () => {
    const ping = frameBytes({ opcode: OPCODES.ping, payload: Buffer.from('are you there') });
    const pings = (count: number) => [Buffer.concat(Array<Buffer>(count).fill(ping))];
    expect(await screenAnswer(pings(50))).toEqual({
      closed: undefined,
      messages: 0,
      pongs: 50,
      refusals: [],
      counted: 0,
    });
    expect(await screenAnswer(pings(500))).toEqual({
      closed: { code: 1006, reason: '' },
      messages: 0,
      pongs: 60,
      refusals: [],
      counted: 0,
    });
    // ws decodes the rest of a chunk already read after the close: the screen is refused (and counted) once.
    const touches = await screenAnswer([Buffer.concat(Array<Buffer>(500).fill(text(CONFIRM)))]);
    expect(touches).toMatchObject({ closed: { code: 1003, reason: POSTS_ONLY }, messages: 500, counted: 1 });
  });

  it('waits for the rest of a frame cut short, then refuses the message it completes', async () => {
    const frame = text(CONFIRM);
    expect(await screenAnswer([frame.subarray(0, 9)])).toMatchObject({ closed: undefined, messages: 0 });
    expect(await screenAnswer([frame.subarray(0, 9), frame.subarray(9)])).toMatchObject({
      closed: { code: 1003 },
      messages: 1,
    });
  });

  it("takes the dealer's touches from the table's own screen only", async () => {
    expect(await touchTaken('::ffff:127.0.0.1')).toBe(true);
    expect(await touchTaken('10.0.0.9')).toBe(false);
    expect(await touchTaken('::ffff:192.168.1.20')).toBe(false);
  });

  it('counts a screen refused, on /healthz, as any refused input', async () => {
    expect((await screenAnswer([text(CONFIRM)])).counted).toBe(1);
    expect((await screenAnswer([text(Buffer.from([0xff]))])).counted).toBe(1);
  });
});
