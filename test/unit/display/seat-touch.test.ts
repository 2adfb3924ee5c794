import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { displayHost } from '../../../simulators/display-host.js';
import { initialSnapshot, type SourceEvent, type TableSnapshot } from '../../../src/controller/pipeline.js';
import { DISPLAY_ACTIONS } from '../../../src/display/protocol.js';
import { registerDisplay } from '../../../src/display/server.js';
import { PROFILES } from '../../../src/rules/index.js';

/** The display's routes on a table whose snapshot the test sets; the touches it takes, and refusals. */
async function display(snapshot: TableSnapshot) {
  const server = Fastify();
  const inputs: SourceEvent[] = [];
  const refused: string[] = [];
  await registerDisplay(server, displayHost(snapshot, { inputs, refused }));
  const touch = (url: string, payload: object, remoteAddress = '127.0.0.1') =>
    server.inject({ method: 'POST', url, payload, remoteAddress });
  return { server, inputs, refused, touch };
}

const idle = initialSnapshot({ seats: 10, profile: PROFILES['main-event-2014'] });

describe("the dealer's seat and next-hand touches", () => {
  it('a seat touch is a seat event; a bad one is refused with its reason and counted', async () => {
    const { touch, inputs, refused, server } = await display(idle);
    expect(
      (await touch(DISPLAY_ACTIONS.seat, { seat: 4, status: 'waiting', name: ' Zoé ' })).statusCode,
    ).toBe(202);
    expect(inputs).toEqual([{ type: 'seat', t: 42, seat: 4, status: 'waiting', name: 'Zoé' }]);
    const bad = await touch(DISPLAY_ACTIONS.seat, { seat: 11, status: 'gone' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      code: 'bad-seat',
      error: expect.stringMatching(/^a seat touch refused: seat/),
    });
    expect(refused).toHaveLength(1);
    expect(inputs).toHaveLength(1);
    await server.close();
  });

  it("only the table's screen may mark a seat", async () => {
    const { touch, inputs, server } = await display(idle);
    expect((await touch(DISPLAY_ACTIONS.seat, { seat: 4, status: 'in' }, '10.0.0.9')).statusCode).toBe(403);
    expect(inputs).toEqual([]);
    await server.close();
  });

  it('next hand needs two players seated, and sends next-hand for the table to start it', async () => {
    const { touch, inputs, server } = await display(idle);
    const none = await touch(DISPLAY_ACTIONS.nextHand, {});
    expect(none.statusCode).toBe(409);
    expect(none.json()).toMatchObject({ code: 'too-few-players' });
    expect(inputs).toEqual([]);
    await server.close();
    const seated = {
      ...idle,
      context: { ...idle.context, seating: { 1: { status: 'in' as const }, 5: { status: 'in' as const } } },
    } as TableSnapshot;
    const two = await display(seated);
    const taken = await two.touch(DISPLAY_ACTIONS.nextHand, {});
    expect(taken.json()).toEqual({ taken: 'next-hand', button: 1 });
    expect(two.inputs).toEqual([{ type: 'dealer', t: 42, input: 'next-hand' }]);
    await two.server.close();
  });
});
