import { describe, expect, it } from 'vitest';
import { FloorSupervisors } from '../../../src/floor/supervisors.js';
import { hashSecret } from '../../../src/supervisor/credentials.js';

const marie = { name: 'Marie', pin: await hashSecret('2468'), badge: await hashSecret('04A1B2C3') };

describe("the floor's supervisors", () => {
  it('sign in with the tables’ hashes, and sign each answer with their own PIN or badge', async () => {
    let now = 0;
    const floor = new FloorSupervisors([marie], { now: () => now, sessionMs: 60_000 });
    expect(await floor.signIn({ pin: '1111' })).toEqual({ refused: 'wrong' });
    const outcome = await floor.signIn({ badge: '04A1B2C3' });
    if (!('signedIn' in outcome)) throw new Error('refused');
    const { token } = outcome.signedIn;
    const command = floor.onMyWay(token, 'T7', '12:40');
    expect(command?.topic).toBe('croupier/v1/T7/command/on-my-way');
    expect(JSON.parse(command?.payload ?? '{}')).toEqual({
      id: expect.any(String),
      badge: '04A1B2C3',
      value: '12:40',
    });
    // Every command has an id of its own: the table refuses a replay.
    expect(JSON.parse(floor.onMyWay(token, 'T7', '12:40')?.payload ?? '{}').id).not.toBe(
      JSON.parse(command?.payload ?? '{}').id,
    );
    now = 60_001;
    expect(floor.onMyWay(token, 'T7', '12:40')).toBeNull();
    expect(floor.who(token)).toBeNull();
  });

  it('forget the credential at sign-out', async () => {
    const floor = new FloorSupervisors([marie], { now: () => 0, sessionMs: 60_000 });
    const outcome = await floor.signIn({ pin: '2468' });
    if (!('signedIn' in outcome)) throw new Error('refused');
    floor.signOut(outcome.signedIn.token);
    expect(floor.onMyWay(outcome.signedIn.token, 'T7', '1:2')).toBeNull();
  });
});
