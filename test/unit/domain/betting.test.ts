import { describe, expect, it } from 'vitest';
import {
  applyAction,
  type Betting,
  betSeen,
  bettingMayGoOn,
  bettingPossible,
  collect,
  handWon,
  mayOwe,
  nextRound,
  openBetting,
  pending,
  roundClosed,
  roundOver,
} from '../../../src/domain/betting.js';
import type { Act } from '../../../src/domain/events.js';

/** Button 10, players 1 2 3 10: SB 1, BB 2, UTG 3. */
function preflop(): Betting {
  return openBetting([3, 10, 1, 2], { sb: 1, bb: 2, amounts: [100, 200] });
}

function play(b: Betting, ...actions: [number, Act, number?][]): Betting {
  return actions.reduce((acc, [seat, act, amount]) => applyAction(acc, seat, act, amount), b);
}

describe('betting round', () => {
  it('starts preflop with every player pending, UTG first', () => {
    expect(pending(preflop())).toEqual([3, 10, 1, 2]);
    expect(roundClosed(preflop())).toBe(false);
  });

  it('the big blind keeps the option after limps', () => {
    const b = play(preflop(), [3, 'call', 200], [10, 'fold'], [1, 'call', 200]);
    expect(pending(b)).toEqual([2]);
    expect(roundClosed(play(b, [2, 'check']))).toBe(true);
  });

  it('a raise reopens the action for everyone who had acted', () => {
    const b = play(preflop(), [3, 'call', 200], [10, 'raise', 600]);
    expect(pending(b)).toEqual([1, 2, 3]);
    const closed = play(b, [1, 'fold'], [2, 'fold'], [3, 'call', 600]);
    expect(roundClosed(closed)).toBe(true);
  });

  it('everyone folding to one player wins the hand', () => {
    const b = play(preflop(), [3, 'fold'], [10, 'fold'], [1, 'fold']);
    expect(handWon(b)).toBe(true);
    expect(pending(b)).toEqual([]);
  });

  it('marks a pending player passed over by an out-of-turn action', () => {
    const b = play(preflop(), [10, 'fold'], [1, 'call', 200], [2, 'check']);
    expect(pending(b)).toEqual([3]);
    expect(b.passed).toEqual([3]);
  });

  it('a player who acts in turn is not passed over', () => {
    const b = play(preflop(), [3, 'call', 200], [10, 'call', 200], [1, 'call', 200]);
    expect(b.passed).toEqual([]);
  });

  it('collecting the bets after the last action closes the round', () => {
    const b = play(preflop(), [3, 'call', 200]);
    expect(roundClosed(collect(b))).toBe(true);
    expect(roundClosed(collect(preflop()))).toBe(false);
  });

  it('postflop action starts left of the button and checks around close it', () => {
    const flop = nextRound(
      play(preflop(), [3, 'call', 200], [10, 'fold'], [1, 'call', 200], [2, 'check']),
      'flop',
      [1, 2, 3, 10],
    );
    expect(pending(flop)).toEqual([1, 2, 3]);
    expect(roundClosed(play(flop, [1, 'check'], [2, 'check'], [3, 'check']))).toBe(true);
  });
});

describe('all-in and no more betting', () => {
  it('two players all-in and the rest folded: no more betting possible', () => {
    const b = play(preflop(), [3, 'allin', 5000], [10, 'fold'], [1, 'fold'], [2, 'allin', 3000]);
    expect(roundClosed(b)).toBe(true);
    expect(bettingPossible(b)).toBe(false);
  });

  it('one player with chips left facing no bet: no more betting possible', () => {
    const b = play(preflop(), [3, 'allin', 5000], [10, 'fold'], [1, 'fold'], [2, 'call', 5000]);
    expect(bettingPossible(b)).toBe(false);
  });

  it('a player with chips must still answer an all-in', () => {
    const b = play(preflop(), [3, 'allin', 5000], [10, 'fold'], [1, 'fold']);
    expect(pending(b)).toEqual([2]);
    expect(bettingPossible(b)).toBe(true);
  });

  it('an all-in for less than the big blind leaves the big blind nothing to answer', () => {
    const b = play(preflop(), [3, 'allin', 150], [10, 'fold'], [1, 'fold']);
    expect(pending(b)).toEqual([]);
    expect(bettingPossible(b)).toBe(false);
  });
});

/** Heads-up, button 1 (small blind, first to act preflop), big blind 2. */
function headsUp(): Betting {
  return openBetting([1, 2], { sb: 1, bb: 2, amounts: [50, 100] });
}

describe('amounts keyed without their amount', () => {
  it('a raise without its amount then a call with one: the raiser matched his own raise', () => {
    const b = play(headsUp(), [1, 'raise'], [2, 'call', 300]);
    expect(pending(b)).toEqual([]);
    expect(b.bets).toEqual({ 1: 300, 2: 300 });
  });

  it('a raise without its amount reopens the action for everyone who had acted', () => {
    const b = play(preflop(), [3, 'call', 200], [10, 'raise'], [1, 'call']);
    expect(pending(b)).toEqual([2, 3]);
    expect(roundClosed(play(b, [2, 'call', 700], [3, 'call']))).toBe(true);
  });

  it('a call for more than the known bet never raises it', () => {
    const b = play(preflop(), [3, 'raise', 600], [10, 'call', 900], [1, 'fold'], [2, 'fold']);
    expect(roundClosed(b)).toBe(true);
  });

  it('a postflop bet without its amount, then calls with one', () => {
    const flop = nextRound(
      play(preflop(), [3, 'call', 200], [10, 'fold'], [1, 'fold'], [2, 'check']),
      'flop',
      [2, 3],
    );
    const b = play(flop, [2, 'bet'], [3, 'call', 400]);
    expect(roundClosed(b)).toBe(true);
    expect(b.bets).toEqual({ 2: 400, 3: 400 });
  });

  it('an all-in without its amount followed by calls without one leaves nobody owing', () => {
    const b = play(preflop(), [3, 'call', 200], [10, 'allin'], [1, 'call'], [2, 'call']);
    expect(pending(b)).toEqual([]);
  });

  it('a call above the known level tells the all-in keyed without its amount raised it', () => {
    const b = play(preflop(), [3, 'call', 200], [10, 'allin'], [1, 'call'], [2, 'call', 800]);
    expect(pending(b)).toEqual([3]);
    expect(b.bets).toMatchObject({ 10: 800, 1: 800, 2: 800 });
    expect(roundClosed(play(b, [3, 'call']))).toBe(true);
  });

  it('an all-in without its amount into an unopened round is a bet; a known all-in after it raises nothing known', () => {
    const flop = nextRound(
      play(preflop(), [3, 'call', 200], [10, 'call', 200], [1, 'call', 200], [2, 'check']),
      'flop',
      [1, 2, 3, 10],
    );
    const b = play(flop, [1, 'check'], [2, 'allin'], [3, 'call'], [10, 'allin', 2250]);
    expect(pending(b)).toEqual([1]);
    expect(roundClosed(play(b, [1, 'call']))).toBe(true);
  });

  it('of several all-ins without their amounts, a call above the level is taken as the first one', () => {
    // Seat 1 called after seat 10's all-in and before seat 2's: it matched whichever raised.
    const b = play(preflop(), [3, 'call', 200], [10, 'allin'], [1, 'call'], [2, 'allin'], [3, 'call', 9000]);
    expect(pending(b)).toEqual([]);
  });

  it('a bet zone fills in the amount of a raise keyed without one', () => {
    const b = betSeen(play(preflop(), [3, 'raise']), 3, 500);
    expect(b.bets[3]).toBe(500);
    expect(b.levels.at(-1)?.amount).toBe(500);
    expect(pending(play(b, [10, 'call', 500]))).toEqual([1, 2]);
  });

  it('a bet zone showing an all-in above the level reopens the action for those before it', () => {
    const b = betSeen(play(preflop(), [3, 'call', 200], [10, 'allin'], [1, 'call']), 10, 1200);
    expect(pending(b)).toEqual([2, 3]);
    expect(b.bets[1]).toBe(1200);
  });

  it('a bet zone showing a known bet changes nothing', () => {
    const b = play(preflop(), [3, 'raise', 600]);
    expect(betSeen(b, 3, 600)).toBe(b);
  });
});

describe('an amount a later call reveals goes to the all-in keyed with it', () => {
  const fourHanded = () => openBetting([1, 2, 3, 4], { sb: 3, bb: 4, amounts: [1, 2] });

  it('an all-in keyed without its amount stays unknown when a later all-in for 5 made the raise', () => {
    const b = play(fourHanded(), [1, 'allin'], [2, 'fold'], [3, 'call'], [4, 'allin', 5], [3, 'call', 5]);
    expect(b.bets[1]).toBeNull();
    expect(b.bets[4]).toBe(5);
    expect(b.bets[3]).toBe(5);
    expect(b.levels.at(-1)).toEqual({ amount: 5, at: 3, seat: 4 });
    expect(roundClosed(b)).toBe(true);
  });

  it('a raise keyed without its amount is not taken as the all-in for 24 a call matched', () => {
    const b = play(fourHanded(), [1, 'raise'], [2, 'allin', 24], [3, 'call', 24]);
    expect(b.bets[1]).toBeNull();
    expect(b.levels.at(-1)).toEqual({ amount: 24, at: 1, seat: 2 });
    // The raiser owes an answer to the all-in above its raise (or matched it: its call says which).
    expect(pending(b)).toEqual([4, 1]);
  });

  it('a short-stacked blind all-in from posting put an amount the hand start does not tell', () => {
    const b = openBetting([3, 4, 1, 2], { sb: 1, bb: 2, amounts: [50, 100], allIn: [1] });
    expect(b.bets[1]).toBeNull();
    expect(b.bets[2]).toBe(100);
  });
});

describe('an all-in that may have raised, its amount or the level not known', () => {
  /** Button 10, heads-up on the flop after a limped preflop: seat 1 first, then seat 2. */
  const flop = () =>
    nextRound(play(preflop(), [3, 'fold'], [10, 'fold'], [1, 'call', 200], [2, 'check']), 'flop', [1, 2]);

  it('over a bet keyed without its amount: the bettor may owe an answer, though none is sure', () => {
    const b = play(flop(), [1, 'bet'], [2, 'allin', 900]);
    expect(pending(b)).toEqual([]);
    expect(roundClosed(b)).toBe(true); // a premature card is judged on sure debts only
    expect(mayOwe(b)).toEqual([1]);
    expect(roundOver(b)).toBe(false);
    expect(bettingPossible(b)).toBe(false);
    expect(bettingMayGoOn(b)).toBe(true);
  });

  it('the bettor acting again shows the all-in raised: it opens the level at its amount', () => {
    const b = play(flop(), [1, 'bet'], [2, 'allin', 900], [1, 'call']);
    expect(b.levels.at(-1)).toEqual({ amount: 900, at: 1, seat: 2 });
    expect(b.bets).toMatchObject({ 1: 900, 2: 900 });
    expect(roundOver(b)).toBe(true);
    expect(bettingMayGoOn(b)).toBe(false);
  });

  it('a call keyed without its amount before the proof gets the raise it matched', () => {
    const threeWay = nextRound(
      play(preflop(), [3, 'call', 200], [10, 'fold'], [1, 'call', 200], [2, 'check']),
      'flop',
      [1, 2, 3],
    );
    const b = play(threeWay, [1, 'bet'], [2, 'allin', 600], [3, 'call'], [1, 'call']);
    expect(b.bets).toMatchObject({ 1: 600, 2: 600, 3: 600 });
    expect(roundOver(b)).toBe(true);
  });

  it('a bet zone showing the bet at or above the all-in settles the doubt: no raise', () => {
    const b = betSeen(play(flop(), [1, 'bet'], [2, 'allin', 900]), 1, 1200);
    expect(mayOwe(b)).toEqual([]);
    expect(roundOver(b)).toBe(true);
  });

  it('an all-in keyed without its amount over a known bet leaves the bettor in doubt until its chips are seen', () => {
    const b = play(flop(), [1, 'bet', 400], [2, 'allin']);
    expect(mayOwe(b)).toEqual([1]);
    expect(mayOwe(betSeen(b, 2, 300))).toEqual([]); // short: a call for less
    expect(pending(betSeen(b, 2, 1500))).toEqual([1]); // a raise: owed for sure
  });

  it('a big blind alone with chips facing an all-in of unknown amount may owe, and its call shows it did', () => {
    const b = play(openBetting([1, 2], { sb: 1, bb: 2, amounts: [150, 300] }), [1, 'allin']);
    expect(pending(b)).toEqual([]);
    expect(mayOwe(b)).toEqual([2]);
    const called = play(b, [2, 'call']);
    expect(called.levels.at(-1)).toEqual({ amount: null, at: 0, seat: 1 });
    expect(roundOver(called)).toBe(true);
  });

  it('an all-in for the bet exactly raises nothing: no doubt', () => {
    expect(mayOwe(play(flop(), [1, 'bet', 400], [2, 'allin', 400]))).toEqual([]);
  });

  it('only who acted before the all-in may owe; who called after it matched whatever it was', () => {
    const threeWay = nextRound(
      play(preflop(), [3, 'call', 200], [10, 'fold'], [1, 'call', 200], [2, 'check']),
      'flop',
      [1, 2, 3],
    );
    expect(mayOwe(play(threeWay, [1, 'bet'], [2, 'allin', 600], [3, 'call']))).toEqual([1]);
  });

  it('of two all-ins in doubt, the larger is the raise the bettor’s call shows; with one unknown, the first', () => {
    const threeWay = nextRound(
      play(preflop(), [3, 'call', 200], [10, 'fold'], [1, 'call', 200], [2, 'check']),
      'flop',
      [1, 2, 3],
    );
    const b = play(threeWay, [1, 'bet'], [2, 'allin', 600], [3, 'allin', 900], [1, 'call']);
    expect(b.levels.at(-1)).toEqual({ amount: 900, at: 2, seat: 3 });
    expect(b.bets[1]).toBe(900);
    expect(mayOwe(b)).toEqual([]); // seat 1 acted after both
    const unknown = play(threeWay, [1, 'bet'], [2, 'allin'], [3, 'allin', 900], [1, 'call']);
    expect(unknown.levels.at(-1)).toEqual({ amount: null, at: 1, seat: 2 });
  });

  it('a check shows nothing, and collecting the bets ends the doubt', () => {
    const b = play(flop(), [1, 'bet'], [2, 'allin', 900]);
    expect(play(b, [1, 'check']).levels).toEqual(b.levels);
    expect(roundOver(collect(b))).toBe(true);
  });
});
