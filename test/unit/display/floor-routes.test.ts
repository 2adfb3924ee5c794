import Fastify from 'fastify';
import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { SourceEvent } from '../../../src/controller/pipeline.js';
import { registerFloorRoutes } from '../../../src/display/floor-routes.js';
import { type DisplayMessage, FLOOR_ACTIONS } from '../../../src/display/protocol.js';
import { hashSecret } from '../../../src/supervisor/credentials.js';
import { FloorDesk } from '../../../src/supervisor/desk.js';

async function floor() {
  const server = Fastify();
  const inputs: SourceEvent[] = [];
  const refused: string[] = [];
  const broadcast: DisplayMessage[] = [];
  const badges = new Subject<string>();
  const desk = new FloorDesk(
    [{ name: 'Marie', pin: await hashSecret('2468'), badge: await hashSecret('04A1B2C3') }],
    { now: Date.now, maxFailures: 2 },
  );
  registerFloorRoutes(server, {
    desk,
    badges,
    input: (event) => inputs.push(event),
    now: () => 42,
    refused: (_, reason) => refused.push(reason),
    broadcast: (message) => broadcast.push(message),
    recentHands: (limit) => [{ number: 7, startedAt: 1000, outputs: [] }].slice(0, limit),
  });
  const post = (action: keyof typeof FLOOR_ACTIONS, payload: unknown) =>
    server.inject({ method: 'POST', url: FLOOR_ACTIONS[action], payload: payload as object });
  return { server, inputs, refused, broadcast, badges, post };
}

describe("the supervisor's actions on the display", () => {
  it('signs the floor decision with the signed-in supervisor; without a session nothing reaches the table', async () => {
    const { post, inputs, refused } = await floor();
    expect((await post('decide', { token: 'guess', decision: 'void' })).statusCode).toBe(401);
    const signIn = await post('signIn', { pin: '2468' });
    expect(signIn.statusCode).toBe(200);
    const { token, supervisor } = signIn.json<{ token: string; supervisor: string }>();
    expect(supervisor).toBe('Marie');
    expect((await post('decide', { token, decision: 'continue' })).statusCode).toBe(202);
    expect(inputs).toEqual([
      { type: 'dealer', t: 42, input: 'floor-decision', value: 'continue', supervisor: 'Marie' },
    ]);
    const recent = await post('recentHands', { token });
    expect(recent.json()).toEqual([{ number: 7, startedAt: 1000, outputs: [] }]);
    expect((await post('signOut', { token })).statusCode).toBe(204);
    expect((await post('recentHands', { token })).statusCode).toBe(401);
    expect((await post('decide', { token, decision: 'void' })).statusCode).toBe(401);
    expect(inputs).toHaveLength(1);
    expect(refused).toEqual(Array(3).fill('no supervisor signed in (or the session ended)'));
  });

  it('refuses a malformed body naming the field, a wrong PIN with 401, then locks with 423', async () => {
    const { post, refused } = await floor();
    const bad = await post('signIn', { pin: '12ab' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: 'pin: a PIN is 4 to 12 digits' });
    expect((await post('decide', { token: 't', decision: 'fold' })).statusCode).toBe(400);
    expect((await post('signIn', { pin: '1111' })).statusCode).toBe(401);
    const locked = await post('signIn', { pin: '2222' });
    expect(locked.statusCode).toBe(423);
    expect(locked.json()).toMatchObject({ refused: 'locked' });
    expect((await post('signIn', { pin: '2468' })).statusCode).toBe(423);
    expect(refused.join('\n')).not.toMatch(/1111|2222|2468/);
    expect(refused).toHaveLength(5);
  });

  it("opens a session for the table's screens when a supervisor's badge is read", async () => {
    const { badges, broadcast, refused } = await floor();
    badges.next('FFFFFFFF');
    await expect.poll(() => refused).toEqual(['badge refused: wrong']);
    badges.next('04A1B2C3');
    await expect.poll(() => broadcast.length).toBe(1);
    expect(broadcast[0]).toMatchObject({ type: 'floor', session: { supervisor: 'Marie' } });
    expect(refused).toEqual(['badge refused: wrong']);
  });
});
