import { describe, expect, it, vi } from 'vitest';
import { PROFILES, type ProfileId } from '../../../src/rules/index.js';
import type { IncidentFacts, TableOutput } from '../../../src/rules/types.js';
import { loadScenario } from '../../../src/scenario/load.js';
import { replayEvents } from '../../../src/table/table.js';

/**
 * The profile-neutral facts the table gives the profile (docs/tda-2024-facts.md): each is given when
 * it holds and not when it does not. The facts are read where the profile is asked, whatever it rules.
 */

type Item = Record<string, unknown>;

/** Button 4, players 1–4 (SB 1, BB 2, deal order 1 2 3 4), deck A. */
const START: Item = {
  t: 0,
  'hand.start': { button: 4, players: [1, 2, 3, 4], blinds: [50, 100], deck: 'A' },
};
/** Heads-up: button 4 (the small blind, dealt last and first to act preflop), big blind 2. */
const HEADS_UP: Item = { t: 0, 'hand.start': { button: 4, players: [2, 4], blinds: [50, 100], deck: 'A' } };

function seat(t: number, n: number, card: string): Item {
  return { t, card: { zone: `seat:${n}`, card } };
}
function board(t: number, card: string): Item {
  return { t, card: { zone: 'board', card } };
}
function burn(t: number, card: string): Item {
  return { t, card: { zone: 'burn', card } };
}
function act(t: number, n: number, action: string, amount?: number): Item {
  return { t, action: { seat: n, act: action, ...(amount === undefined ? {} : { amount }) } };
}
function reader(t: number, status: 'offline' | 'online'): Item {
  return { t, device: { device: 'rfid-seats', status } };
}

const DEAL: Item[] = ['As', 'Kd', 'Qh', 'Jc', '2s', '3d', '4h', '5c'].map((card, i) =>
  seat(500 * (i + 1), (i % 4) + 1, card),
);
/** Preflop: seat 3 raises, seat 4 calls (substantial action), the blinds call. */
const RAISED: Item[] = [
  act(5000, 3, 'raise', 300),
  act(5500, 4, 'call', 300),
  act(6000, 1, 'call', 300),
  act(6500, 2, 'call', 300),
];

function replay(items: Item[], profile: ProfileId = 'tda-2024'): TableOutput[] {
  const scenario = loadScenario(
    { name: 'unit', profile, table: { seats: 6 }, decks: ['A', 'B'], events: items },
    'unit.yaml',
  );
  return replayEvents({ seats: 6, profile: scenario.profile }, scenario.events);
}

/** The member of IncidentFacts whose incident is I (some members stand for several incidents). */
type FactsOf<I, F = IncidentFacts> = F extends { incident: infer J } ? (I extends J ? F : never) : never;

/** The facts the profile was asked about for each `incident` raised. */
function factsOf<I extends IncidentFacts['incident']>(
  incident: I,
  items: Item[],
  profile: ProfileId = 'tda-2024',
): FactsOf<I>[] {
  const decide = vi.spyOn(PROFILES[profile], 'decide');
  replay(items, profile);
  const asked = decide.mock.calls.map(([facts]) => facts);
  decide.mockRestore();
  return asked.filter((facts): facts is FactsOf<I> => facts.incident === incident);
}

describe('FOREIGN_CARD: nonStandard, zone, afterSubstantialAction', () => {
  it('a registered deck’s joker on a seat during the deal is non-standard, before substantial action', () => {
    expect(factsOf('FOREIGN_CARD', [START, seat(500, 1, 'joker')])).toEqual([
      { incident: 'FOREIGN_CARD', nonStandard: true, zone: 'seat', afterSubstantialAction: false },
    ]);
  });

  it('a tag no deck has is not, and the turn after a raise and calls is on the board after it', () => {
    const items = [START, ...DEAL, ...RAISED, burn(7000, '9s'), board(7500, '9h'), board(8000, '9d')];
    const flop = [...items, board(8500, '9c'), act(9000, 1, 'check'), act(9500, 2, 'check')];
    const turn = [...flop, act(10000, 3, 'check'), act(10500, 4, 'check'), burn(11000, '8s')];
    expect(factsOf('FOREIGN_CARD', [...turn, board(11500, '?:04C0FFEE')])).toEqual([
      { incident: 'FOREIGN_CARD', nonStandard: false, zone: 'board', afterSubstantialAction: true },
    ]);
  });
});

describe('MIXED_DECK: duplicatesInPlay', () => {
  const flop = [START, ...DEAL, ...RAISED, burn(7000, '9s'), board(7500, '9h'), board(8000, '9d')];

  it('the other deck’s card with the face of a hole card in play', () => {
    expect(factsOf('MIXED_DECK', [...flop, board(8500, 'B:As')])[0]?.duplicatesInPlay).toBe(true);
  });

  it('not with a face that is not in play', () => {
    expect(factsOf('MIXED_DECK', [...flop, board(8500, 'B:7c')])[0]?.duplicatesInPlay).toBe(false);
  });
});

describe('MISSING_CARD: buttonActedShort, noCard', () => {
  it('heads-up, the short button calls first and ends the deal: it acted short', () => {
    const items = [
      HEADS_UP,
      seat(500, 2, 'As'),
      seat(1000, 4, 'Kd'),
      seat(1500, 2, 'Qh'),
      act(2000, 4, 'call', 100),
    ];
    expect(factsOf('MISSING_CARD', items)).toEqual([
      {
        incident: 'MISSING_CARD',
        atButton: true,
        afterSubstantialAction: false,
        buttonActedShort: true,
        noCard: false,
      },
    ]);
  });

  it('the short button whose deal another seat’s action ends did not act, and a seat served nothing had no card', () => {
    const short = DEAL.filter((_, i) => i !== 7);
    const facts = factsOf('MISSING_CARD', [START, ...short, act(5000, 3, 'call', 100)]);
    expect(facts.map(({ buttonActedShort, noCard }) => ({ buttonActedShort, noCard }))).toEqual([
      { buttonActedShort: false, noCard: false },
    ]);
    // A reader gap earlier in the hand: the deal's order is not judged, so the skip is no misdeal.
    const none = [
      reader(100, 'offline'),
      reader(200, 'online'),
      ...DEAL.filter((_, i) => i !== 3 && i !== 7),
    ];
    const empty = factsOf('MISSING_CARD', [START, ...none, act(5000, 3, 'call', 100)]);
    expect(empty.map(({ noCard }) => noCard)).toEqual([true]);
  });
});

describe('PREMATURE_FLOP: burnAmongPremature', () => {
  const open = [START, ...DEAL, act(5000, 3, 'call', 100)];
  const cycle = (cards: string[]) => cards.map((card, i) => board(6000 + 60 * i, card));

  it('four board cards in one cycle and no burn: the burn lies among them', () => {
    const facts = factsOf('PREMATURE_FLOP', [...open, ...cycle(['9h', '9d', '9c', '8s'])]);
    expect(facts[0]?.burnAmongPremature).toBe(true);
  });

  it('three: no burn was dealt', () => {
    const facts = factsOf('PREMATURE_FLOP', [...open, ...cycle(['9h', '9d', '9c'])]);
    expect(facts[0]?.burnAmongPremature).toBe(false);
  });
});

describe('FLOP_FOUR_CARDS before FLOP_NO_BURN (one cycle, no burn)', () => {
  const closed = [START, ...DEAL, ...RAISED];
  const cycle = (cards: string[]) => cards.map((card, i) => board(7000 + 60 * i, card));

  it('four flop cards and no burn in one cycle are a flop of four, its burn not identifiable', () => {
    expect(factsOf('FLOP_FOUR_CARDS', [...closed, ...cycle(['9h', '9d', '9c', '8s'])])).toEqual([
      { incident: 'FLOP_FOUR_CARDS', identifiable: false, burnIdentifiable: false },
    ]);
  });

  it('three are a flop with no burn', () => {
    expect(factsOf('FLOP_FOUR_CARDS', [...closed, ...cycle(['9h', '9d', '9c'])])).toEqual([]);
    expect(factsOf('FLOP_NO_BURN', [...closed, ...cycle(['9h', '9d', '9c'])])).not.toEqual([]);
  });
});

describe('FLOP_NO_BURN after a reader gap: actionSinceFirstFlopCard', () => {
  const gap = [
    START,
    ...DEAL,
    ...RAISED,
    reader(6800, 'offline'),
    board(7000, '9h'),
    board(7500, '9d'),
    board(8000, '9c'),
  ];

  it('a check made before the readers are back', () => {
    const items = [...gap, act(8500, 1, 'check'), reader(9000, 'online'), act(9500, 2, 'check')];
    expect(factsOf('FLOP_NO_BURN', items)).toEqual([
      { incident: 'FLOP_NO_BURN', identifiable: true, actionSinceFirstFlopCard: true },
    ]);
  });

  it('none: the action that brings the judgment is not yet made', () => {
    const items = [...gap, reader(8500, 'online'), act(9000, 1, 'check')];
    expect(factsOf('FLOP_NO_BURN', items)[0]?.actionSinceFirstFlopCard).toBe(false);
  });

  it('a burn the reader reads once back was out: nothing is raised', () => {
    const items = [...gap, reader(8500, 'online'), burn(8600, '8s'), act(9000, 1, 'check')];
    expect(factsOf('FLOP_NO_BURN', items)).toEqual([]);
  });
});

describe('BUTTON_MISPLACED: afterSubstantialAction', () => {
  it('a puck read on a wrong seat after substantial action is judged', () => {
    const items = [
      START,
      ...DEAL,
      ...RAISED.slice(0, 2),
      { t: 5700, button: { seat: 3 } },
      act(6000, 1, 'fold'),
    ];
    expect(factsOf('BUTTON_MISPLACED', items)).toEqual([
      { incident: 'BUTTON_MISPLACED', headsUp: false, deadButton: false, afterSubstantialAction: true },
    ]);
  });

  it('not once cards are out and before substantial action', () => {
    const items = [
      START,
      ...DEAL,
      act(5000, 3, 'call', 100),
      { t: 5200, button: { seat: 3 } },
      act(6000, 4, 'fold'),
    ];
    expect(factsOf('BUTTON_MISPLACED', items)).toEqual([]);
  });
});

describe('CARD_TO_WRONG_SEAT: firstCardToWrongSeat, afterSubstantialAction', () => {
  it('the first card to a seat that is no player', () => {
    expect(factsOf('CARD_TO_WRONG_SEAT', [START, seat(500, 5, 'As')])).toEqual([
      { incident: 'CARD_TO_WRONG_SEAT', firstCardToWrongSeat: true, afterSubstantialAction: false },
    ]);
  });

  it('a later one, first read after a reader gap and substantial action', () => {
    const items = [
      START,
      ...DEAL.slice(0, 4),
      reader(2200, 'offline'),
      ...RAISED.slice(0, 2),
      reader(5800, 'online'),
    ];
    const late = [
      ...items,
      ...DEAL.slice(4).map((c, i) => ({ ...c, t: 6000 + 100 * i })),
      seat(6500, 5, '7c'),
    ];
    expect(factsOf('CARD_TO_WRONG_SEAT', late)).toEqual([
      { incident: 'CARD_TO_WRONG_SEAT', firstCardToWrongSeat: false, afterSubstantialAction: true },
    ]);
  });
});

describe('ALL_IN_SHOWDOWN: the profile weighs the all-in facts', () => {
  const heads = [HEADS_UP, seat(500, 2, 'As'), seat(1000, 4, 'Kd'), seat(1500, 2, 'Qh'), seat(2000, 4, 'Jc')];
  const turn = [
    ...heads,
    act(2500, 4, 'call', 100),
    act(3000, 2, 'check'),
    burn(3500, '9s'),
    ...['9h', '9d', '9c'].map((card, i) => board(4000 + 500 * i, card)),
    act(5500, 2, 'check'),
    act(6000, 4, 'check'),
    burn(6500, '8s'),
    board(7000, '8h'),
    act(7500, 2, 'allin', 900),
    act(8000, 4, 'call', 900),
  ];
  const prompts = (outputs: TableOutput[]) =>
    outputs.flatMap((o) => (o.kind === 'prompt' && o.prompt === 'ALL_IN_SHOWDOWN' ? [o.at] : []));

  it('one all-in called with chips behind: due where the profile asks for one all-in', () => {
    expect(prompts(replay(turn))).toEqual([16]);
  });

  it('not due where RULINGS.md asks for two', () => {
    expect(prompts(replay(turn, 'main-event-2014'))).toEqual([]);
  });

  it('finalRoundClosed: given once the river round closes with the hand still contested, not before', () => {
    const checks = (t: number) => [1, 2, 4].map((n, i) => act(t + 100 * i, n, 'check'));
    const street = (t: number, cards: string[]) => [
      burn(t, cards[0] as string),
      ...cards.slice(1).map((card, i) => board(t + 500 * (i + 1), card)),
      ...checks(t + 2500),
    ];
    const allIn = [act(5000, 3, 'allin', 300), act(5500, 4, 'call', 300), act(6000, 1, 'call', 300)];
    const items = [
      START,
      ...DEAL,
      ...allIn,
      act(6500, 2, 'call', 300),
      ...street(7000, ['9s', '9h', '9d', '9c']),
      ...street(11000, ['8s', '8h']),
      ...street(15000, ['7s', '7h']),
    ];
    const trigger = vi.spyOn(PROFILES['tda-2024'], 'allInShowdown');
    replay(items);
    const closed = trigger.mock.calls.map(([facts]) => facts.finalRoundClosed);
    trigger.mockRestore();
    expect(closed.at(-1)).toBe(true);
    expect(closed.slice(0, -1).every((c) => c === false)).toBe(true);
  });
});
