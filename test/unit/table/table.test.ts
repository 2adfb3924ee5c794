import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import type { DomainEvent } from '../../../src/domain/events.js';
import type { TableOutput } from '../../../src/rules/types.js';
import { loadScenario } from '../../../src/scenario/load.js';
import { phaseOf, startTable, step, tableMachine } from '../../../src/table/machine.js';
import type { TableContext } from '../../../src/table/state.js';
import { replayEvents } from '../../../src/table/table.js';
import { canonicalOrder } from '../../../src/table/window.js';

type Item = Record<string, unknown>;

/** Events of a small scenario: button 4, players 1–4 (SB 1, BB 2, deal order 1 2 3 4). */
function table(items: Item[]) {
  const scenario = loadScenario(
    {
      name: 'unit',
      profile: 'main-event-2014',
      table: { seats: 6 },
      decks: ['A', 'B'],
      events: [
        { t: 0, 'hand.start': { button: 4, players: [1, 2, 3, 4], blinds: [50, 100], deck: 'A' } },
        ...items,
      ],
    },
    'unit.yaml',
  );
  const config = { seats: 6, profile: scenario.profile };
  return { scenario, config, events: scenario.events };
}

const DEAL: Item[] = ['As', 'Kd', 'Qh', 'Jc', '2s', '3d', '4h', '5c'].map((card, i) => ({
  t: 500 * (i + 1),
  card: { zone: `seat:${(i % 4) + 1}`, card },
}));

/** The context after the events, the last antenna cycle settled. */
function run(items: Item[]): TableContext {
  const { config, events } = table(items);
  const settle: DomainEvent = { type: 'settle', t: 1e9, seq: events.length };
  return [...events, settle].reduce(step, startTable(config)).context;
}

function incidents(items: Item[]) {
  const { config, events } = table(items);
  return replayEvents(config, events).map(named);
}

/** An output as these tests compare it: an incident with its event, a prompt, a pot's award. */
function named(o: TableOutput): string {
  if (o.kind === 'incident') return `${o.incident} ${o.at}`;
  return o.kind === 'prompt' ? o.prompt : `award ${o.pot}`;
}

describe('card locations', () => {
  it("a peek's card.gone never removes a card, and the card seen again is not a new one", () => {
    const ctx = run([
      ...DEAL,
      { t: 4200, gone: { zone: 'seat:1', card: 'As' } },
      { t: 4300, card: { zone: 'seat:1', card: 'As' } },
    ]);
    expect(ctx.hand?.holes[1]).toHaveLength(2);
    expect(ctx.hand?.received[1]).toBe(2);
  });

  it('a card moving to the muck leaves the seat', () => {
    const ctx = run([
      ...DEAL,
      { t: 5000, card: { zone: 'muck', card: 'Qh' } },
      { t: 6000, action: { seat: 3, act: 'fold' } },
    ]);
    const qh = Object.values(ctx.hand?.cards ?? {}).find((c) => c.ref.face === 'Qh');
    expect(qh?.role).toBe('muck');
    expect(ctx.hand?.holes[3]).toHaveLength(1);
  });

  it('burn and board cards go where they land', () => {
    const ctx = run([
      ...DEAL,
      ...[3, 4, 1].map((seat, i) => ({ t: 5000 + 500 * i, action: { seat, act: 'call', amount: 100 } })),
      { t: 6500, action: { seat: 2, act: 'check' } },
      { t: 7000, card: { zone: 'burn', card: '9s' } },
      { t: 7500, card: { zone: 'board', card: '9h' } },
    ]);
    expect(ctx.hand?.burns).toHaveLength(1);
    expect(ctx.hand?.board).toHaveLength(1);
  });
});

describe('reordering window', () => {
  it('two hole cards of one antenna cycle reported out of order raise nothing', () => {
    const swapped = [...DEAL];
    swapped[1] = { t: 1000, card: { zone: 'seat:3', card: 'Qh' } };
    swapped[2] = { t: 1100, card: { zone: 'seat:2', card: 'Kd' } };
    expect(incidents(swapped)).toEqual([]);
  });

  it('the same order 300 ms apart is a skipped seat, named at the card that passed it', () => {
    const skipped = [...DEAL];
    skipped[1] = { t: 1000, card: { zone: 'seat:3', card: 'Qh' } };
    skipped[2] = { t: 1300, card: { zone: 'seat:2', card: 'Kd' } };
    expect(incidents(skipped)[0]).toBe('SEAT_SKIPPED 2');
  });

  it('orders a cycle as a correct deal would: hole cards by position, burn before board, repeats dropped', () => {
    const { config, events } = table([
      { t: 100, card: { zone: 'board', card: '9h' } },
      { t: 110, card: { zone: 'seat:2', card: 'Kd' } },
      { t: 120, card: { zone: 'burn', card: '9s' } },
      { t: 130, card: { zone: 'seat:1', card: 'As' } },
      { t: 140, card: { zone: 'seat:1', card: 'As' } },
    ]);
    const ctx = step(startTable(config), events[0] as DomainEvent).context;
    const cycle = events.slice(1).filter((e) => e.type === 'card.seen');
    const order = canonicalOrder(ctx.hand, cycle).map((e) => `${e.zone} ${e.face}`);
    expect(order).toEqual(['seat:1 As', 'seat:2 Kd', 'burn 9s', 'board 9h']);
  });
});

describe('the machine is a pure function of its events', () => {
  it('a step leaves the previous snapshot untouched', () => {
    const { config, events } = table([...DEAL, { t: 5000, dealer: { input: 'exposed', zone: 'seat:3' } }]);
    let snapshot = startTable(config);
    for (const event of events) {
      const before = JSON.stringify(snapshot);
      const next = step(snapshot, event);
      expect(JSON.stringify(snapshot)).toBe(before);
      snapshot = next;
    }
  });

  it('a replay of the same events on a fresh table gives what the live steps gave', () => {
    const items = [
      ...DEAL,
      { t: 5000, action: { seat: 3, act: 'raise', amount: 300 } },
      { t: 5600, card: { zone: 'board', card: '9h' } },
    ];
    const { config, events } = table(items);
    let snapshot = startTable(config);
    const stepped: string[] = [];
    for (const event of [...events, { type: 'settle', t: 1e9, seq: events.length } as DomainEvent]) {
      snapshot = step(snapshot, event);
      stepped.push(...snapshot.context.outputs.map(named));
    }
    expect(stepped).toEqual(['PREMATURE_FLOP 10']);
    expect(incidents(items)).toEqual(stepped);
  });
});

/** The deal, the preflop round called around, and a flop with its burn. */
const TO_THE_FLOP: Item[] = [
  ...DEAL,
  ...[3, 4, 1].map((seat, i) => ({ t: 5000 + 500 * i, action: { seat, act: 'call', amount: 100 } })),
  { t: 6500, action: { seat: 2, act: 'check' } },
  { t: 7000, card: { zone: 'burn', card: '9s' } },
  { t: 7500, card: { zone: 'board', card: '9h' } },
  { t: 8000, card: { zone: 'board', card: 'Th' } },
  { t: 8500, card: { zone: 'board', card: 'Jh' } },
];

/** Where the table stands: the hand's phase, its street while betting, and whether an incident is open. */
function standing(context: TableContext): string {
  const phase = phaseOf(context);
  const street = phase === 'betting' ? ` ${context.hand?.betting.street}` : '';
  return `${phase}${street}${context.open.length > 0 ? ', incident open' : ''}`;
}

describe('where the hand stands', () => {
  it('follows the hand: dealing, each betting street, and an open incident', () => {
    const { config, events } = table([
      ...TO_THE_FLOP,
      { t: 9000, action: { seat: 1, act: 'check' } },
      { t: 9500, dealer: { input: 'burn-exposed' } },
    ]);
    const actor = createActor(tableMachine, { input: config }).start();
    const seen = new Set<string>();
    actor.subscribe((s) => seen.add(standing(s.context)));
    expect(standing(actor.getSnapshot().context)).toBe('idle');
    for (const event of events) actor.send(event);
    expect([...seen]).toEqual(['dealing', 'betting preflop', 'betting flop', 'betting flop, incident open']);
    actor.send({ type: 'dealer', input: 'confirm', t: 10_000, seq: 99 });
    expect(standing(actor.getSnapshot().context)).toBe('betting flop');
  });

  it('a hand started while the last one was still betting is dealing, not betting', () => {
    const { config, events } = table([
      ...TO_THE_FLOP,
      { t: 9000, 'hand.start': { button: 1, players: [1, 2, 3, 4], blinds: [50, 100], deck: 'B' } },
    ]);
    const actor = createActor(tableMachine, { input: config }).start();
    for (const event of events.slice(0, -1)) actor.send(event);
    actor.send({ type: 'settle', t: 8900, seq: events.length - 2 });
    expect(standing(actor.getSnapshot().context)).toBe('betting flop');
    actor.send(events.at(-1) as DomainEvent);
    expect(standing(actor.getSnapshot().context)).toBe('dealing');
  });

  it('a misdeal voids the hand until the redeal', () => {
    const { config, events } = table([
      { t: 500, card: { zone: 'seat:2', card: 'As' } },
      { t: 1000, card: { zone: 'seat:1', card: 'Kd' } },
    ]);
    const actor = createActor(tableMachine, { input: config }).start();
    for (const event of events) actor.send(event);
    actor.send({ type: 'settle', t: 2000, seq: 2 });
    expect(standing(actor.getSnapshot().context)).toBe('void, incident open');
  });

  it('a supervisor overruling a misdeal lets the hand go on where it stood, every procedure closed', () => {
    const ctx = run([
      { t: 500, card: { zone: 'seat:2', card: 'As' } },
      { t: 1000, card: { zone: 'seat:1', card: 'Kd' } },
      { t: 2000, dealer: { input: 'floor-decision', value: 'continue', supervisor: 'Marie' } },
    ]);
    expect(ctx.phase).toBe('dealing');
    expect(ctx.open).toEqual([]);
  });

  it('a supervisor voids a hand in play; a decision after the hand is over changes nothing', () => {
    const voided = run([
      ...DEAL,
      { t: 5000, dealer: { input: 'floor-decision', value: 'void', supervisor: 'Marie' } },
    ]);
    expect(voided.phase).toBe('void');
    const over = run([
      ...DEAL,
      { t: 5000, dealer: { input: 'hand-end' } },
      { t: 5500, dealer: { input: 'floor-decision', value: 'void', supervisor: 'Marie' } },
    ]);
    expect(over.phase).toBe('ended');
  });
});

describe('hole cards stay secret', () => {
  it('an incident naming a face-down card on a seat marks it secret; an exposed card is public', () => {
    const foreign = table([{ t: 500, card: { zone: 'seat:1', card: '?:04A1B2C3' } }]);
    const [report] = replayEvents(foreign.config, foreign.events);
    expect(report).toMatchObject({ incident: 'FOREIGN_CARD', secret: ['04A1B2C3'] });
    const exposed = table([...DEAL, { t: 5000, dealer: { input: 'exposed', zone: 'seat:3' } }]);
    const [shown] = replayEvents(exposed.config, exposed.events);
    expect(shown).toMatchObject({ incident: 'EXPOSED_CARD', secret: [] });
  });
});

describe('a fold during the deal', () => {
  /** The deal short of the button's (seat 4) second card, then seat 3's fold at t 4000. */
  const shortDeal: Item[] = [...DEAL.slice(0, 7), { t: 4000, action: { seat: 3, act: 'fold' } }];

  function afterSettle(t: number): string[] {
    const { config, events } = table(shortDeal);
    const ctx = [...events, { type: 'settle', t, seq: events.length } as DomainEvent].reduce(
      step,
      startTable(config),
    ).context;
    return ctx.outputs.flatMap((o) => (o.kind === 'incident' ? [`${o.incident} ${o.at}`] : []));
  }

  it('ends the deal at the fold once the dealer has paused for two seconds', () => {
    expect(afterSettle(5900)).toEqual([]);
    expect(afterSettle(6000)).toEqual(['MISSING_CARD 8']);
  });

  it('ends the deal at the fold when the next action comes', () => {
    expect(incidents([...shortDeal, { t: 4500, action: { seat: 4, act: 'call', amount: 100 } }])).toEqual([
      'MISSING_CARD 8',
    ]);
  });

  it('does not end it when the dealer goes on with the deal', () => {
    expect(incidents([...shortDeal, { t: 4500, card: { zone: 'seat:4', card: '5c' } }])).toEqual([]);
  });
});

describe('facts raised at their own read', () => {
  /** The incidents the last event brought out, when reads of certain facts are judged at once or held. */
  function atLast(items: Item[], factsAtRead: boolean): string[] {
    const { config, events } = table(items);
    const ctx = events.reduce(step, startTable({ ...config, factsAtRead })).context;
    return ctx.outputs.flatMap((o) => (o.kind === 'incident' ? [`${o.incident} ${o.at}`] : []));
  }

  it('a tag the registry does not know, a card of the other deck, a card on a seat that is no player', () => {
    for (const card of [
      { zone: 'seat:1', card: '?:04A1B2C3' },
      { zone: 'seat:2', card: 'B:Qd' },
      { zone: 'seat:5', card: 'Qd' },
    ]) {
      const items = [...DEAL.slice(0, 4), { t: 2400, card }];
      expect(atLast(items, true)).toHaveLength(1);
      expect(atLast(items, false)).toEqual([]);
    }
  });

  it('an order-dependent judgment still waits for its cycle: a skipped seat', () => {
    const skipped = [...DEAL.slice(0, 1), { t: 1000, card: { zone: 'seat:3', card: 'Qh' } }];
    expect(atLast(skipped, true)).toEqual([]);
  });

  it('a certain fact waits too while another read of its cycle is held', () => {
    const items = [
      ...DEAL.slice(0, 3),
      { t: 1600, card: { zone: 'seat:4', card: 'Jc' } },
      { t: 1700, card: { zone: 'seat:1', card: '?:04A1B2C3' } },
    ];
    expect(atLast(items, true)).toEqual([]);
  });
});
