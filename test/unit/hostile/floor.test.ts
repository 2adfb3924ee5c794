import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commandAnswers, floorCommandsTarget, SENTINEL } from '../../../fuzz/floor-commands.js';
import { floorHttp, floorRoutes } from '../../../fuzz/floor-http.js';
import { generatedInputs } from '../../../fuzz/harness.js';
import { hashSecret } from '../../../src/supervisor/credentials.js';
import { FloorDesk } from '../../../src/supervisor/desk.js';

const command = (name: string, payload: string) => ({ name, payload: Buffer.from(payload) });

describe('floor commands on MQTT: hostile input', () => {
  it('takes or refuses, with a reason, every generated message, and checks the next command’s signature', async () => {
    await fc.assert(
      fc.asyncProperty(generatedInputs(floorCommandsTarget), async (input) => {
        await floorCommandsTarget.check(input);
      }),
      { numRuns: 300 },
    );
  });

  it('signs the floor’s command after garbage, a replay and a command that is no command', async () => {
    const desk = new FloorDesk([{ name: 'Marie', pin: await hashSecret('2468') }], { now: () => 42 });
    const { inputs, refused } = await commandAnswers(
      [
        command('void-hand', '{"id":"7","pin":"2468","id":"8"}{'),
        command('void-hand', `{"id":"7","pin":"2468","${'k'.repeat(20_000)}":1}`),
        command('open-the-safe', '{"id":"9","pin":"2468"}'),
        SENTINEL,
        SENTINEL,
      ],
      desk,
    );
    expect(refused.map((refusal) => refusal.reason)).toEqual([
      'command void-hand: the payload is not JSON',
      expect.stringMatching(/^command void-hand: Unrecognized key: "k+… \(20020 characters\)$/),
      'unknown command "open-the-safe" (known: acknowledge, floor-decision, void-hand, call-floor, level, on-my-way)',
      'command call-floor: id sentinel was already taken (a replay)',
    ]);
    expect(inputs).toEqual([{ type: 'dealer', t: 42, input: 'call-floor', supervisor: 'Marie' }]);
  });
});

describe('the display’s floor API: hostile input', () => {
  it('answers every generated JSON body in process, refusing with a reason, and takes the next decision', async () => {
    await fc.assert(
      fc.asyncProperty(generatedInputs(floorRoutes), async (input) => {
        await floorRoutes.check(input);
      }),
      { numRuns: 1000 },
    );
  });

  it('answers every generated request below 500, as the handlers in process do, and takes the next decision', async () => {
    await fc.assert(
      fc.asyncProperty(generatedInputs(floorHttp), async (input) => {
        await floorHttp.check(input);
      }),
      { numRuns: 200 },
    );
  });

  it('refuses a body over the limit, a wrong content type and prototype poisoning, naming why', async () => {
    const outcomes = [
      { url: '/api/floor/sign-in', contentType: 'application/json', body: Buffer.alloc(1_100_000, 0x20) },
      { url: '/api/floor/sign-in', contentType: 'x/y', body: Buffer.from('{"pin":"1234"}') },
      {
        url: '/api/floor/decision',
        contentType: 'application/json',
        body: Buffer.from('{"__proto__":{"token":"t"}}'),
      },
    ];
    for (const input of outcomes) expect(await floorHttp.check(input)).toBe('refused');
  });

  it('decodes a body in process as the server does: broken JSON, an empty body, poisoning, a field refused', async () => {
    const json = (body: string) => ({
      url: '/api/floor/decision',
      contentType: 'application/json',
      body: Buffer.from(body),
    });
    for (const body of [
      '{"token":',
      '',
      '{"constructor":{"prototype":{}}}',
      '{"token":"t","decision":"fold"}',
    ]) {
      expect(await floorRoutes.check(json(body))).toBe('refused');
      // floor-http answers through Fastify and checks the handlers in process answer the same.
      expect(await floorHttp.check(json(body))).toBe('refused');
    }
  });
});
