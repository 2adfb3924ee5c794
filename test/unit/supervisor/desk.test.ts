import { describe, expect, it } from 'vitest';
import { HASHED_SECRET, hashSecret, matchesSecret } from '../../../src/supervisor/credentials.js';
import { FloorDesk } from '../../../src/supervisor/desk.js';

describe('supervisor credentials', () => {
  it('are salted hashes: the same PIN hashes differently, and only it matches', async () => {
    const [one, two] = await Promise.all([hashSecret('2468'), hashSecret('2468')]);
    expect(one).toMatch(HASHED_SECRET);
    expect(one).not.toBe(two);
    expect(one).not.toContain('2468');
    expect(await matchesSecret('2468', one)).toBe(true);
    expect(await matchesSecret('2469', one)).toBe(false);
    expect(await matchesSecret('2468', 'scrypt:not-a-hash')).toBe(false);
  });
});

describe('the floor desk', () => {
  const supervisors = async () => [
    { name: 'Marie', pin: await hashSecret('2468') },
    { name: 'Luc', badge: await hashSecret('04A1B2C3') },
  ];

  it('signs a supervisor in by PIN or badge, for a session that ends', async () => {
    let now = 1_000;
    const desk = new FloorDesk(await supervisors(), { now: () => now, sessionMs: 60_000 });
    const byPin = await desk.signIn({ pin: '2468' });
    const byBadge = await desk.signIn({ badge: '04A1B2C3' });
    if (!('signedIn' in byPin) || !('signedIn' in byBadge)) throw new Error('not signed in');
    expect(byPin.signedIn).toMatchObject({ supervisor: 'Marie', until: 61_000 });
    expect(desk.who(byPin.signedIn.token)).toBe('Marie');
    expect(desk.who(byBadge.signedIn.token)).toBe('Luc');
    desk.signOut(byBadge.signedIn.token);
    expect(desk.who(byBadge.signedIn.token)).toBeNull();
    now = 61_000;
    expect(desk.who(byPin.signedIn.token)).toBeNull();
    expect(desk.who('made-up')).toBeNull();
    // A badge UID is no PIN, and a PIN no badge.
    expect(await desk.signIn({ pin: '04A1B2C3' })).toEqual({ refused: 'wrong' });
  });

  it('locks after repeated wrong PINs, refusing even the right one until the lock ends', async () => {
    let now = 0;
    const desk = new FloorDesk(await supervisors(), { now: () => now, maxFailures: 3, lockoutMs: 300_000 });
    expect(await desk.signIn({ pin: '0000' })).toEqual({ refused: 'wrong' });
    expect(await desk.signIn({ pin: '0001' })).toEqual({ refused: 'wrong' });
    expect(await desk.signIn({ pin: '0002' })).toEqual({ refused: 'locked', until: 300_000 });
    now = 299_999;
    expect(await desk.signIn({ pin: '2468' })).toEqual({ refused: 'locked', until: 300_000 });
    now = 300_000;
    expect(await desk.signIn({ pin: '2468' })).toHaveProperty('signedIn.supervisor', 'Marie');
    expect(desk.counters()).toEqual({ signedIn: 1, wrong: 3, lockouts: 1 });
  });

  it('checks one credential at a time: a flood of guesses is refused, not queued', async () => {
    const desk = new FloorDesk(await supervisors(), { now: () => 0 });
    const outcomes = await Promise.all([desk.signIn({ pin: '1111' }), desk.signIn({ pin: '2468' })]);
    expect(outcomes).toEqual([{ refused: 'wrong' }, { refused: 'busy' }]);
  });
});
