import { describe, expect, it } from 'vitest';
import { awardOrder, awardPot, houseRake, splitPot } from '../../../src/domain/award-split.js';
import { applyAction, type Betting, foldSeat, nextRound, openBetting } from '../../../src/domain/betting.js';
import {
  contributions,
  type HandBets,
  uncalledBet,
  uncalledReturn,
} from '../../../src/domain/contributions.js';
import type { Act } from '../../../src/domain/events.js';
import { layerPots, type Pot, sidePotMade } from '../../../src/domain/pots.js';
import { defaultBlinds, postflopOrder, preflopOrder } from '../../../src/domain/seats.js';
import { showOrder } from '../../../src/domain/show-order.js';

type Step = [number, Act, number?];

interface Table {
  players: number[];
  button: number;
  blinds?: [number, number];
  ante?: number;
  sb?: number | null;
}

const STREETS = ['flop', 'turn', 'river'] as const;

/** The betting model's rounds for the actions of each street, preflop first, as the table machine keeps them. */
function rounds(t: Table, ...streets: Step[][]): Betting[] {
  const blinds = defaultBlinds(t.button, t.players);
  const sb = t.sb === undefined ? blinds.sb : t.sb;
  const open = openBetting(preflopOrder(t.players, blinds.bb), {
    sb,
    bb: blinds.bb,
    amounts: t.blinds ?? [50, 100],
  });
  const played: Betting[] = [];
  streets.forEach((steps, i) => {
    const last = played.at(-1);
    const start =
      last === undefined
        ? open
        : nextRound(last, STREETS[i - 1] ?? 'river', postflopOrder(t.players, t.button));
    played.push(steps.reduce((b, [seat, act, amount]) => applyAction(b, seat, act, amount), start));
  });
  return played;
}

function hand(t: Table, ...streets: Step[][]): HandBets {
  return { players: t.players, ante: t.ante ?? 0, rounds: rounds(t, ...streets) };
}

/** `h` with `seats` killed by a ruling in its last round (their hands dead, their chips in the pots). */
function killedByRuling(h: HandBets, ...seats: number[]): HandBets {
  const last = h.rounds.at(-1) as Betting;
  return { ...h, rounds: [...h.rounds.slice(0, -1), seats.reduce(foldSeat, last)] };
}

/** Button 4: small blind 1, big blind 2, first to act 3. */
const FOUR: Table = { players: [1, 2, 3, 4], button: 4 };

/** Short all-in 3 for 200, all-in 4 for 500, 1 and 2 call and bet on: three levels. */
const THREE_LEVELS: Step[][] = [
  [
    [3, 'allin', 200],
    [4, 'allin', 500],
    [1, 'call', 500],
    [2, 'call', 500],
  ],
  [
    [1, 'bet', 400],
    [2, 'call', 400],
  ],
  [
    [1, 'check'],
    [2, 'check'],
  ],
  [
    [1, 'check'],
    [2, 'check'],
  ],
];

const RULES = { button: 4, chipUnit: 25 };

describe('contributions', () => {
  it('the ante, then each round last total, blinds in the preflop one', () => {
    const h = hand(
      { ...FOUR, ante: 25 },
      [
        [3, 'raise', 300],
        [4, 'fold'],
        [1, 'fold'],
        [2, 'call', 300],
      ],
      [
        [2, 'bet', 200],
        [3, 'raise', 600],
        [2, 'call', 600],
      ],
    );
    expect(contributions(h)).toEqual([
      { seat: 1, ante: 25, rounds: [50, 0], folded: true, allIn: false },
      { seat: 2, ante: 25, rounds: [300, 600], folded: false, allIn: false },
      { seat: 3, ante: 25, rounds: [300, 600], folded: false, allIn: false },
      { seat: 4, ante: 25, rounds: [0, 0], folded: true, allIn: false },
    ]);
  });

  it('an amount keyed without a number stays unknown, unless the bet zone reported the total', () => {
    const h = hand(FOUR, [
      [3, 'raise'],
      [4, 'fold'],
      [1, 'fold'],
      [2, 'call'],
    ]);
    expect(contributions(h).map((c) => c.rounds)).toEqual([[50], [null], [null], [0]]);
    const seen = { ...h, betZones: { preflop: { 2: 0, 3: 400 } } };
    expect(contributions(seen).map((c) => c.rounds)).toEqual([[50], [null], [400], [0]]);
  });

  it('a hand before its first round: nobody folded or all-in, nothing to return', () => {
    const h: HandBets = { players: [1, 2], ante: 25, rounds: [] };
    expect(contributions(h)).toEqual([
      { seat: 1, ante: 25, rounds: [], folded: false, allIn: false },
      { seat: 2, ante: 25, rounds: [], folded: false, allIn: false },
    ]);
    expect(uncalledBet(h)).toBeNull();
  });
});

describe('uncalled bet', () => {
  it('the part of a raise no one called goes back to its owner', () => {
    const h = hand(FOUR, [
      [3, 'raise', 300],
      [4, 'raise', 900],
      [1, 'fold'],
      [2, 'fold'],
      [3, 'fold'],
    ]);
    expect(uncalledBet(h)).toEqual({ seat: 4, amount: 600 });
    expect(layerPots(h)).toEqual([{ pot: 0, amount: 50 + 100 + 300 + 300, eligible: [4] }]);
  });

  it('an uncontested big blind is a bet: what the small blind did not match goes back', () => {
    const h = hand({ ...FOUR, ante: 10 }, [
      [3, 'fold'],
      [4, 'fold'],
      [1, 'fold'],
    ]);
    expect(uncalledBet(h)).toEqual({ seat: 2, amount: 50 });
    expect(layerPots(h)).toEqual([{ pot: 0, amount: 40 + 50 + 50, eligible: [2] }]);
  });

  it('with a dead small blind the whole big blind goes back', () => {
    const h = hand({ ...FOUR, sb: null }, [
      [3, 'fold'],
      [4, 'fold'],
      [1, 'fold'],
    ]);
    expect(uncalledBet(h)).toEqual({ seat: 2, amount: 100 });
    expect(layerPots(h)).toEqual([{ pot: 0, amount: 0, eligible: [2] }]);
  });

  it('an all-in above every other: the part no one could match goes back', () => {
    const h = hand(
      FOUR,
      [
        [3, 'allin', 300],
        [4, 'allin', 1000],
        [1, 'fold'],
        [2, 'fold'],
      ],
      [],
      [],
      [],
    );
    expect(uncalledBet(h)).toEqual({ seat: 4, amount: 700 });
    expect(layerPots(h)).toEqual([{ pot: 0, amount: 750, eligible: [3, 4] }]);
  });

  it('a bet of the last round, not a called one of an earlier round', () => {
    const h = hand(
      FOUR,
      [
        [3, 'call', 100],
        [4, 'call', 100],
        [1, 'call', 100],
        [2, 'check'],
      ],
      [
        [1, 'check'],
        [2, 'bet', 300],
        [3, 'fold'],
        [4, 'fold'],
        [1, 'fold'],
      ],
    );
    expect(uncalledBet(h)).toEqual({ seat: 2, amount: 300 });
  });

  it('a called bet returns nothing', () => {
    const h = hand(FOUR, ...THREE_LEVELS);
    expect(uncalledBet(h)).toBeNull();
  });

  it('a raise called, both keyed without their amount: called all the same, nothing to return', () => {
    const h = hand(FOUR, [
      [3, 'raise'],
      [4, 'call'],
      [1, 'fold'],
      [2, 'fold'],
    ]);
    expect(uncalledBet(h)).toBeNull();
  });

  it('a bet against an all-in of unknown amount: the part that comes back is unknown, maybe nothing', () => {
    const preflop: Step[] = [
      [3, 'call', 100],
      [4, 'call', 100],
      [1, 'call', 100],
      [2, 'check'],
    ];
    const flop: Step[] = [
      [1, 'bet', 500],
      [2, 'allin'],
      [3, 'fold'],
      [4, 'fold'],
    ];
    expect(uncalledBet(hand(FOUR, preflop, flop))).toEqual({ seat: 1, amount: null });
  });

  it('nobody able to bet and the top all-in unknown: whose bet is above the others is unknown', () => {
    const h = hand(FOUR, [
      [3, 'allin'],
      [4, 'allin', 500],
      [1, 'fold'],
      [2, 'fold'],
    ]);
    expect(uncalledReturn(h, contributions(h))).toBe('unknown');
    expect(uncalledBet(h)).toBeNull();
    expect(layerPots(h)).toBeNull();
  });
});

describe('pots', () => {
  it('one winner takes the main pot', () => {
    const h = hand(
      FOUR,
      [
        [3, 'raise', 300],
        [4, 'call', 300],
        [1, 'fold'],
        [2, 'call', 300],
      ],
      [
        [2, 'check'],
        [3, 'bet', 500],
        [4, 'fold'],
        [2, 'call', 500],
      ],
    );
    const pots = layerPots(h) as Pot[];
    expect(pots).toEqual([{ pot: 0, amount: 50 + 800 + 800 + 300, eligible: [2, 3] }]);
    expect(awardPot(pots, 0, [3], RULES)).toEqual({
      pot: 0,
      amount: 1950,
      eligible: [2, 3],
      winners: [3],
      rake: 0,
      shares: { 3: 1950 },
    });
  });

  it('three levels: the short all-in can win the main pot only', () => {
    const pots = layerPots(hand(FOUR, ...THREE_LEVELS)) as Pot[];
    expect(pots).toEqual([
      { pot: 0, amount: 800, eligible: [1, 2, 3, 4] },
      { pot: 1, amount: 900, eligible: [1, 2, 4] },
      { pot: 2, amount: 800, eligible: [1, 2] },
    ]);
    const winners: Record<number, number[]> = { 0: [3], 1: [4], 2: [1] };
    const awards = awardOrder(pots).map((p) => awardPot(pots, p.pot, winners[p.pot] ?? [], RULES));
    expect(awards.map((a) => [a.pot, a.shares])).toEqual([
      [2, { 1: 800 }],
      [1, { 4: 900 }],
      [0, { 3: 800 }],
    ]);
  });

  it("a folded player's chips stay in the pots it paid into", () => {
    const five: Table = { players: [1, 2, 3, 4, 5], button: 5 };
    const h = hand(
      five,
      [
        [3, 'allin', 200],
        [4, 'allin', 500],
        [5, 'call', 500],
        [1, 'call', 500],
        [2, 'call', 500],
      ],
      [
        [1, 'bet', 400],
        [2, 'call', 400],
        [5, 'fold'],
      ],
    );
    expect(layerPots(h)).toEqual([
      { pot: 0, amount: 1000, eligible: [1, 2, 3, 4] },
      { pot: 1, amount: 1200, eligible: [1, 2, 4] },
      { pot: 2, amount: 800, eligible: [1, 2] },
    ]);
  });

  it('every player able to bet killed by a ruling: their chips above the last all-in join the pot below', () => {
    const h = hand(FOUR, ...THREE_LEVELS);
    const killed = killedByRuling(h, 1, 2);
    expect(layerPots(killed)).toEqual([
      { pot: 0, amount: 800, eligible: [3, 4] },
      { pot: 1, amount: 1700, eligible: [4] },
    ]);
  });

  it('a player all-in from posting the ante: a main pot of the antes, the bets in a side pot', () => {
    const b = openBetting([3, 4, 1, 2], { sb: 1, bb: 2, amounts: [50, 100], allIn: [4] });
    const preflop = [
      [3, 'call', 100],
      [1, 'call', 100],
      [2, 'check'],
    ] as Step[];
    const h: HandBets = {
      players: [1, 2, 3, 4],
      ante: 25,
      rounds: [preflop.reduce((m, [seat, act, amount]) => applyAction(m, seat, act, amount), b)],
    };
    expect(layerPots(h)).toEqual([
      { pot: 0, amount: 100, eligible: [1, 2, 3, 4] },
      { pot: 1, amount: 300, eligible: [1, 2, 3] },
    ]);
  });

  it('a pot whose amount depends on an unknown bet is null; the pots below it are not', () => {
    const h = hand(FOUR, [
      [3, 'allin', 200],
      [4, 'raise'],
      [1, 'fold'],
      [2, 'call'],
    ]);
    expect(layerPots(h)).toEqual([
      { pot: 0, amount: 50 + 3 * 200, eligible: [2, 3, 4] },
      { pot: 1, amount: null, eligible: [2, 4] },
    ]);
    const seen = { ...h, betZones: { preflop: { 2: 600, 4: 600 } } };
    expect(layerPots(seen)?.[1]?.amount).toBe(800);
  });

  it('everyone left all-in at one level, the others killed by a ruling: their chips above it join the main pot', () => {
    const h = hand(
      FOUR,
      [
        [3, 'allin', 500],
        [4, 'allin', 500],
        [1, 'call', 500],
        [2, 'call', 500],
      ],
      [
        [1, 'bet', 400],
        [2, 'call', 400],
      ],
    );
    const killed = killedByRuling(h, 1, 2);
    expect(layerPots(killed)).toEqual([{ pot: 0, amount: 4 * 500 + 2 * 400, eligible: [3, 4] }]);
  });

  it('two all-in levels under a raise keyed without its amount: the side pot between them is known too', () => {
    const h = hand(FOUR, [
      [3, 'allin', 200],
      [4, 'allin', 500],
      [1, 'raise'],
      [2, 'call'],
    ]);
    expect(layerPots(h)).toEqual([
      { pot: 0, amount: 800, eligible: [1, 2, 3, 4] },
      { pot: 1, amount: 900, eligible: [1, 2, 4] },
      { pot: 2, amount: null, eligible: [1, 2] },
    ]);
  });

  it('everyone left all-in, the players killed after raises of unknown amount: the pot below them is unknown', () => {
    const h = hand(
      FOUR,
      [
        [3, 'allin', 200],
        [4, 'allin', 500],
        [1, 'raise'],
        [2, 'call'],
      ],
      [
        [1, 'bet', 400],
        [2, 'call', 400],
      ],
    );
    const killed = killedByRuling(h, 1, 2);
    expect(layerPots(killed)).toEqual([
      { pot: 0, amount: 800, eligible: [3, 4] },
      { pot: 1, amount: null, eligible: [4] },
    ]);
  });

  it('a hand won at a fold with the uncalled part unknown: no layering', () => {
    const h = hand(FOUR, [
      [3, 'raise'],
      [4, 'allin', 500],
      [1, 'fold'],
      [2, 'fold'],
      [3, 'fold'],
    ]);
    expect(layerPots(h)).toBeNull();
  });

  it('players listed in any order: each pot names its eligible seats in seat order', () => {
    const h = hand(FOUR, ...THREE_LEVELS);
    expect(layerPots({ ...h, players: [4, 2, 3, 1] })).toEqual(layerPots(h));
  });

  it('an all-in of unknown amount: no layering (SHOWDOWN_RANKING) until its bet zone tells it', () => {
    const h = hand(FOUR, [
      [3, 'allin'],
      [4, 'fold'],
      [1, 'fold'],
      [2, 'call'],
    ]);
    expect(layerPots(h)).toBeNull();
    const seen = { ...h, betZones: { preflop: { 3: 400, 2: 400 } } };
    expect(layerPots(seen)).toEqual([{ pot: 0, amount: 850, eligible: [2, 3] }]);
  });

  it('a round that layers a new level makes a side pot; one that only adds to it does not', () => {
    const all = hand(FOUR, ...THREE_LEVELS);
    const upTo = (n: number) => ({ ...all, rounds: all.rounds.slice(0, n) });
    expect([1, 2, 3, 4].map((n) => sidePotMade(upTo(n)))).toEqual([true, true, false, false]);
    const called = hand(
      FOUR,
      [
        [3, 'allin', 200],
        [4, 'call', 200],
        [1, 'call', 200],
        [2, 'call', 200],
      ],
      [
        [1, 'bet', 100],
        [2, 'call', 100],
        [4, 'call', 100],
      ],
    );
    expect(sidePotMade({ ...called, rounds: called.rounds.slice(0, 1) })).toBe(false);
    expect(sidePotMade(called)).toBe(true);
  });
});

describe('split and rake', () => {
  it('an odd chip goes to the first winner left of the button', () => {
    expect(splitPot(475, [2, 3], 4, 25)).toEqual({ 2: 250, 3: 225 });
    expect(splitPot(475, [1, 3], 2, 25)).toEqual({ 3: 250, 1: 225 });
    expect(splitPot(1000, [1, 3, 4], 3, 25)).toEqual({ 4: 350, 1: 325, 3: 325 });
  });

  it('chipUnit 5: whole chips only, the odd ones clockwise from the button', () => {
    expect(splitPot(1010, [2, 5, 7], 6, 5)).toEqual({ 7: 340, 2: 335, 5: 335 });
  });

  it('less than a chipUnit goes to the next winner in the odd-chip line', () => {
    expect(splitPot(1010, [2, 5], 6, 25)).toEqual({ 2: 510, 5: 500 });
  });

  it('a split hand from a real hand: sb folded, two winners, an odd chip', () => {
    const h = hand(
      { ...FOUR, blinds: [25, 50] },
      [
        [3, 'call', 50],
        [4, 'call', 50],
        [1, 'fold'],
        [2, 'check'],
      ],
      [
        [2, 'check'],
        [3, 'check'],
        [4, 'check'],
      ],
    );
    const pots = layerPots(h) as Pot[];
    expect(awardPot(pots, 0, [3, 2], RULES).shares).toEqual({ 2: 100, 3: 75 });
  });

  it('the rake: percent of each pot in whole chips, main pot first, capped over the hand', () => {
    const pots = layerPots(hand(FOUR, ...THREE_LEVELS)) as Pot[];
    const rake = { percent: 10, cap: 150 };
    expect(houseRake(pots, rake, 25)).toEqual([75, 75, 0]);
    const rules = { ...RULES, rake };
    expect(awardPot(pots, 0, [3], rules)).toMatchObject({ amount: 800, rake: 75, shares: { 3: 725 } });
    expect(awardPot(pots, 1, [4, 1], rules)).toMatchObject({
      amount: 900,
      rake: 75,
      shares: { 1: 425, 4: 400 },
    });
    expect(awardPot(pots, 2, [1], rules)).toMatchObject({ amount: 800, rake: 0, shares: { 1: 800 } });
  });

  it('the percent counts to a hundredth without floating-point loss; a cap off the chipUnit is cut to it', () => {
    const pot = (amount: number): Pot => ({ pot: 0, amount, eligible: [1] });
    expect(houseRake([pot(1000)], { percent: 4.1, cap: 100 }, 1)).toEqual([41]);
    expect(houseRake([pot(1000)], { percent: 10, cap: 60 }, 25)).toEqual([50]);
  });

  it('an unknown pot: no shares, and the pots raked after it have no known rake', () => {
    const pots: Pot[] = [
      { pot: 0, amount: null, eligible: [1, 2] },
      { pot: 1, amount: 400, eligible: [1, 2] },
    ];
    expect(houseRake(pots, { percent: 5, cap: 100 }, 5)).toEqual([null, null]);
    expect(awardPot(pots, 0, [1], { button: 4, chipUnit: 5 })).toMatchObject({ amount: null, shares: null });
    expect(awardPot(pots, 1, [1], { button: 4, chipUnit: 5 }).shares).toEqual({ 1: 400 });
    const capped: Pot[] = [
      { pot: 0, amount: 1000, eligible: [1] },
      ...pots.slice(0, 1).map((p) => ({ ...p, pot: 1 })),
    ];
    expect(houseRake(capped, { percent: 10, cap: 100 }, 5)).toEqual([100, 0]);
    const raked = { button: 4, chipUnit: 5, rake: { percent: 5, cap: 100 } };
    expect(awardPot(pots, 1, [1], raked)).toMatchObject({ amount: 400, rake: null, shares: null });
  });

  it('after an unknown cut, a pot too small for a whole chip of rake is raked nothing, surely', () => {
    const pots: Pot[] = [
      { pot: 0, amount: null, eligible: [1, 2] },
      { pot: 1, amount: 100, eligible: [1, 2] },
    ];
    expect(houseRake(pots, { percent: 10, cap: 500 }, 25)).toEqual([null, 0]);
  });

  it('pots listed in any order: the main pot is raked first, each cut given in the order listed', () => {
    const side: Pot = { pot: 1, amount: 2000, eligible: [1, 2] };
    const main: Pot = { pot: 0, amount: 1000, eligible: [1, 2, 3] };
    expect(houseRake([side, main], { percent: 10, cap: 150 }, 25)).toEqual([50, 100]);
  });

  it('a pot not in the hand, or one without a winner, is a caller error named as such', () => {
    const pots: Pot[] = [{ pot: 0, amount: 300, eligible: [1, 2] }];
    expect(() => awardPot(pots, 3, [1], RULES)).toThrow(new RangeError('no pot 3'));
    expect(() => splitPot(300, [], 4, 25)).toThrow(new RangeError('a pot needs a winner'));
  });
});

describe('show order', () => {
  const table: Table = { players: [1, 2, 3, 5, 6], button: 3 };
  const preflop: Step[] = [
    [1, 'call', 100],
    [2, 'call', 100],
    [3, 'call', 100],
    [5, 'call', 100],
    [6, 'check'],
  ];
  const checks: Step[] = [
    [5, 'check'],
    [6, 'check'],
    [1, 'check'],
    [2, 'check'],
    [3, 'check'],
  ];

  it('the last to bet or raise in the last round shows first, then clockwise', () => {
    const river: Step[] = [
      [5, 'check'],
      [6, 'bet', 200],
      [1, 'raise', 600],
      [2, 'fold'],
      [3, 'fold'],
      [5, 'call', 600],
      [6, 'call', 600],
    ];
    const last = rounds(table, preflop, checks, checks, river).at(-1) as Betting;
    expect(showOrder(last, 3)).toEqual([1, 5, 6]);
  });

  it('a round checked through: the first player left of the button first', () => {
    const last = rounds(table, preflop, checks, checks, checks).at(-1) as Betting;
    expect(showOrder(last, 3)).toEqual([5, 6, 1, 2, 3]);
    expect(showOrder(last, 4)).toEqual([5, 6, 1, 2, 3]);
  });

  it("when the last raiser's hand was killed, the one who bet before it leads", () => {
    const river: Step[] = [
      [5, 'bet', 200],
      [6, 'raise', 400],
      [1, 'call', 400],
      [2, 'fold'],
      [3, 'fold'],
      [5, 'call', 400],
    ];
    const last = rounds(table, preflop, checks, checks, river).at(-1) as Betting;
    expect(showOrder(last, 3)).toEqual([6, 1, 5]);
    expect(showOrder(foldSeat(last, 6), 3)).toEqual([5, 1]);
  });
});
