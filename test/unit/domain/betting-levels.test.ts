import { describe, expect, it } from 'vitest';
import {
  allInPlayers,
  applyAction,
  type Betting,
  betSeen,
  collect,
  foldSeat,
  nextRound,
  openBetting,
  pending,
} from '../../../src/domain/betting.js';
import type { Act } from '../../../src/domain/events.js';

/*
 * The betting round's bookkeeping, each rule with the case that tells it from its near neighbours: the
 * round as it opens, which actions count and what they open, what a later amount fills in, and which
 * seats are pending or passed. (betting.test.ts has the round's flow.)
 */

/** Button 10, players 1 2 3 10: SB 1, BB 2, UTG 3. */
function preflop(): Betting {
  return openBetting([3, 10, 1, 2], { sb: 1, bb: 2, amounts: [100, 200] });
}

function play(b: Betting, ...actions: [number, Act, number?][]): Betting {
  return actions.reduce((acc, [seat, act, amount]) => applyAction(acc, seat, act, amount), b);
}

describe('a round as it opens', () => {
  it('preflop: the blinds posted, nobody folded, all-in or passed, no action yet', () => {
    expect(preflop()).toEqual({
      street: 'preflop',
      order: [3, 10, 1, 2],
      folded: [],
      allIn: [],
      bets: { 1: 100, 2: 200 },
      levels: [{ amount: 200, at: -1, seat: null }],
      lastAct: {},
      count: 0,
      passed: [],
      lastActor: null,
      collected: false,
      actions: [],
    });
  });

  it('preflop: no small blind, a newcomer who posted the big blind beside the blinds', () => {
    const b = openBetting([3, 10, 2], { sb: null, bb: 2, amounts: [100, 200], posted: [10] });
    expect(b.bets).toEqual({ 2: 200, 10: 200 });
    expect(pending(b)).toEqual([3, 10, 2]);
  });

  it('a later street: the folded players out of the order, no bet, nothing passed or collected', () => {
    // Seat 1 was passed by the big blind's check; the dealer collected the bets.
    const before = collect(play(preflop(), [3, 'call', 200], [10, 'fold'], [2, 'check']));
    expect(before.passed).toEqual([1]);
    const flop = nextRound(before, 'flop', [1, 2, 3, 10]);
    expect(flop).toMatchObject({
      street: 'flop',
      order: [1, 2, 3],
      folded: [10],
      bets: {},
      levels: [{ amount: 0, at: -1, seat: null }],
      lastAct: {},
      count: 0,
      passed: [],
      lastActor: null,
      collected: false,
    });
    expect(flop.actions).toEqual(before.actions);
  });
});

describe('actions', () => {
  it('of a seat out of the hand, folded or all-in are ignored', () => {
    const b = play(preflop(), [3, 'fold'], [10, 'allin', 5000]);
    for (const seat of [5, 3, 10]) expect(applyAction(b, seat, 'raise', 9000)).toBe(b);
  });

  it('record, in order, whether each put chips in', () => {
    const flop = nextRound(
      play(preflop(), [3, 'call', 200], [10, 'fold'], [1, 'fold'], [2, 'check']),
      'flop',
      [2, 3],
    );
    const b = play(flop, [2, 'check'], [3, 'bet', 200], [2, 'raise', 600], [3, 'allin', 5000], [2, 'fold']);
    const onTheFlop = b.actions.slice(flop.actions.length);
    expect(onTheFlop.map((action) => action.chips)).toEqual([false, true, true, true, false]);
  });

  it('a call keyed without its amount matches the level', () => {
    expect(play(preflop(), [3, 'call']).bets[3]).toBe(200);
  });

  it('a bet zone reading a raise at the level is a call; short of it, the seat still owes its action', () => {
    const call = play(preflop(), [3, 'raise', 200]);
    expect(call.levels).toHaveLength(1);
    expect(call.bets[3]).toBe(200);
    expect(pending(call)).toEqual([10, 1, 2]);
    const short = play(preflop(), [3, 'raise', 150]);
    expect(short.levels).toHaveLength(1);
    expect(short.bets[3]).toBe(150);
    expect(pending(short)).toEqual([10, 1, 2, 3]);
  });

  it('a raise opens a level of its amount, or of an amount not known yet; so does one over an unknown level', () => {
    expect(play(preflop(), [3, 'raise', 600]).levels.at(-1)).toEqual({ amount: 600, at: 0, seat: 3 });
    expect(play(preflop(), [3, 'raise']).levels.at(-1)).toEqual({ amount: null, at: 0, seat: 3 });
    expect(play(preflop(), [3, 'raise'], [10, 'raise', 500]).levels).toEqual([
      { amount: 200, at: -1, seat: null },
      { amount: null, at: 0, seat: 3 },
      { amount: 500, at: 1, seat: 10 },
    ]);
  });

  it('an all-in above the level opens a level of its amount; at the level, or after an unknown all-in, none', () => {
    expect(play(preflop(), [3, 'allin', 5000]).levels.at(-1)).toEqual({ amount: 5000, at: 0, seat: 3 });
    expect(play(preflop(), [3, 'allin', 200]).levels).toHaveLength(1);
    expect(play(preflop(), [3, 'allin'], [10, 'allin', 900]).levels).toHaveLength(1);
    // Over a raise of unknown amount, an all-in may be below it: no level either.
    expect(play(preflop(), [3, 'raise'], [10, 'allin', 5000]).levels).toHaveLength(2);
  });
});

describe('levels and bets learnt later', () => {
  it('a call at the level after an unknown all-in does not reveal it', () => {
    const b = play(preflop(), [3, 'call', 200], [10, 'allin'], [1, 'call', 200]);
    expect(b.levels).toHaveLength(1);
    expect(pending(b)).toEqual([2]);
  });

  it('a call above a level opened since an unknown all-in is no raise of that all-in', () => {
    const b = play(preflop(), [3, 'allin'], [10, 'raise', 1000], [1, 'call', 1500]);
    expect(b.levels.map((level) => level.amount)).toEqual([200, 1000]);
    expect(b.bets[3]).toBeNull();
  });

  it('filling the top level leaves the others, and the known bets, as they were', () => {
    const b = play(preflop(), [3, 'raise', 600], [10, 'raise'], [1, 'fold'], [2, 'call', 1500]);
    expect(b.levels.map((level) => level.amount)).toEqual([200, 600, 1500]);
    expect(b.bets).toEqual({ 1: 100, 2: 1500, 3: 600, 10: 1500 });
  });

  it('filling a level gives its amount to who matched it since, not to an all-in of unknown amount', () => {
    const b = play(preflop(), [3, 'raise'], [10, 'call'], [1, 'allin'], [2, 'call', 900]);
    expect(b.bets).toEqual({ 1: null, 2: 900, 3: 900, 10: 900 });
  });

  it('filling a level leaves the unknown bets of seats that acted before it', () => {
    const b = play(preflop(), [3, 'raise'], [10, 'call'], [1, 'raise'], [2, 'call', 1500]);
    expect(b.bets).toEqual({ 1: 1500, 2: 1500, 3: null, 10: null });
  });

  it('an all-in of unknown amount that opened the round learns it from a call', () => {
    const flop = nextRound(
      play(preflop(), [3, 'call', 200], [10, 'fold'], [1, 'fold'], [2, 'check']),
      'flop',
      [2, 3],
    );
    const b = play(flop, [2, 'allin'], [3, 'call', 800]);
    expect(b.bets).toEqual({ 2: 800, 3: 800 });
    expect(b.levels.at(-1)).toEqual({ amount: 800, at: 0, seat: 2 });
  });

  it('a bet zone reading nothing, or a seat whose bet is known, changes nothing', () => {
    const b = play(preflop(), [3, 'raise']);
    expect(betSeen(b, 3, 0)).toBe(b);
    expect(betSeen(b, 10, 500)).toBe(b);
  });

  it('a bet zone of a seat whose level was raised since fills its bet only', () => {
    const b = betSeen(play(preflop(), [3, 'raise'], [10, 'raise']), 3, 500);
    expect(b.bets[3]).toBe(500);
    expect(b.levels.map((level) => level.amount)).toEqual([200, null, null]);
  });

  it('a bet zone showing an all-in at the level, or over a level not known, opens none', () => {
    const atLevel = betSeen(play(preflop(), [3, 'call', 200], [10, 'allin']), 10, 200);
    expect(atLevel.levels).toHaveLength(1);
    expect(atLevel.bets[10]).toBe(200);
    expect(pending(atLevel)).toEqual([1, 2]);
    const overUnknown = betSeen(play(preflop(), [3, 'raise'], [10, 'allin']), 10, 5000);
    expect(overUnknown.levels).toHaveLength(2);
    expect(overUnknown.bets[10]).toBe(5000);
  });
});

describe('pending and passed seats', () => {
  it('a passed seat that acts is passed no more; a seat passed twice is listed once', () => {
    const passed = play(preflop(), [10, 'fold'], [1, 'call', 200], [2, 'check']);
    expect(play(passed, [3, 'call', 200]).passed).toEqual([]);
    const twice = play(preflop(), [10, 'fold'], [2, 'check'], [1, 'call', 200]);
    expect(twice.passed).toEqual([3]);
  });

  it('nobody is pending once one player is left', () => {
    expect(pending(play(preflop(), [3, 'raise', 600], [10, 'fold'], [1, 'fold'], [3, 'fold']))).toEqual([]);
  });

  it('with one player left able to bet, an all-in of unknown amount opening the round is owed an answer', () => {
    const flop = nextRound(
      play(preflop(), [3, 'call', 200], [10, 'fold'], [1, 'fold'], [2, 'check']),
      'flop',
      [2, 3],
    );
    expect(pending(play(flop, [2, 'allin']))).toEqual([3]);
  });

  it('with one player left able to bet, a blind short of the big blind still owes its action', () => {
    const b = play(preflop(), [3, 'allin', 150], [10, 'fold'], [2, 'fold']);
    expect(pending(b)).toEqual([1]);
  });

  it('the all-in players still in the hand', () => {
    const b = play(preflop(), [3, 'allin', 5000], [10, 'allin', 300], [1, 'call', 5000], [10, 'fold']);
    expect(allInPlayers(b)).toEqual([3, 10]);
    expect(allInPlayers(play(preflop(), [3, 'allin', 5000], [10, 'fold']))).toEqual([3]);
  });

  it('a seat folded by ruling leaves the passed seats; folding it again changes nothing', () => {
    const twice = play(preflop(), [10, 'fold'], [2, 'check']);
    expect(twice.passed).toEqual([3, 1]);
    const dead = foldSeat(twice, 3);
    expect(dead.passed).toEqual([1]);
    expect(dead.folded).toEqual([10, 3]);
    expect(dead.count).toBe(twice.count);
    expect(foldSeat(dead, 3)).toBe(dead);
  });
});
