import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { publicOutput, publicState } from '../../../src/outputs/public.js';
import { publicOutputSchema, publicStateSchema } from '../../../src/outputs/public-schema.js';
import type { TableOutput } from '../../../src/rules/types.js';
import { parseScenarioText } from '../../../src/scenario/load.js';
import { tableMachine } from '../../../src/table/machine.js';

/** Runs a corpus file through the machine, keeping every output and the public state after each event. */
async function run(file: string) {
  const path = new URL(`../../scenarios/${file}`, import.meta.url);
  const scenario = parseScenarioText(await readFile(path, 'utf8'), file);
  const actor = createActor(tableMachine, {
    input: {
      seats: scenario.table.seats,
      profile: scenario.profile,
      orderWindowMs: scenario.table.orderWindowMs,
    },
  });
  const outputs: TableOutput[] = [];
  actor.start();
  const states = scenario.events.map((event) => {
    actor.send(event);
    outputs.push(...actor.getSnapshot().context.outputs);
    return publicState(actor.getSnapshot());
  });
  return { scenario, outputs, states };
}

describe('the public view', () => {
  it('masks a foreign card lying face down on a seat, and its UID', async () => {
    const { outputs } = await run('main-event-2014/foreign-card-deal.yaml');
    const [incident] = outputs;
    expect(incident?.kind === 'incident' && incident.secret).toEqual(['04C0FFEE']);
    const shown = publicOutput(incident as TableOutput);
    expect(shown).toMatchObject({ incident: 'FOREIGN_CARD', cards: [{ hidden: true }] });
    expect(JSON.stringify(shown)).not.toContain('04C0FFEE');
    expect(publicOutputSchema.parse(shown)).toEqual(shown);
  });

  it('names an exposed card, which is out of play', async () => {
    const { outputs, states } = await run('main-event-2014/exposed-card-dealer-card-2.yaml');
    const shown = outputs.map(publicOutput);
    expect(shown[0]).toMatchObject({ incident: 'EXPOSED_CARD', cards: [{ face: expect.any(String) }] });
    const faces = shown.flatMap((output) => (output.kind === 'incident' ? output.cards : []));
    expect(states.some((state) => state.incident !== null)).toBe(true);
    expect(faces.length).toBeGreaterThan(0);
  });

  it('shows a hole card its player exposed face up on its seat while it stays live there, and no other', async () => {
    const { states } = await run('main-event-2014/exposed-card-player.yaml');
    const faceUp = states.map((state) =>
      Object.fromEntries(state.seats.flatMap((seat) => (seat.faceUp ? [[seat.seat, seat.faceUp]] : []))),
    );
    expect(faceUp.slice(0, 4)).toEqual([{}, {}, {}, {}]); // pitched face down, not yet turned
    // CARD_LIVE: the card plays on, face up on seat 3, to the last event.
    for (const seen of faceUp.slice(4))
      expect(seen).toEqual({ 3: [{ face: '5d', deck: 'A', uid: expect.any(String) }] });
    for (const state of states) expect(publicStateSchema.parse(state)).toEqual(state);
  });

  it('shows a card a ruling killed as dead, not on the seat it left', async () => {
    const { states } = await run('french-casino/flashed-card.yaml');
    expect(states.every((state) => state.seats.every((seat) => seat.faceUp === undefined))).toBe(true);
    expect(states[4]?.dead).toEqual([expect.objectContaining({ face: '7d' })]);
  });

  it('says between hands from the machine’s tag: before the first hand and once it is over', async () => {
    const { scenario, states } = await run('clean/me-several-hands.yaml');
    states.forEach((state, index) => {
      expect(state.betweenHands, `event ${index}`).toBe(['idle', 'ended', 'void'].includes(state.phase));
    });
    expect(states.some((state) => state.betweenHands)).toBe(true);
    expect(scenario.events.length).toBe(states.length);
  });

  it('tables a hand at its `shown`, never a mucked one, and names no winner before the award', async () => {
    // Seat 4 tables Ah Jh (event 28), seat 6 mucks 8h 8c unshown (29, 30), seat 2 tables Jd 3d and takes the pot (31).
    const { scenario, states } = await run('showdown/show-order-best-hand-mucked-unshown.yaml');
    const face = (state: (typeof states)[number], seat: number) =>
      state.seats.find((s) => s.seat === seat)?.tabled?.cards.map((card) => 'face' in card && card.face);
    states.forEach((state, index) => {
      expect(publicStateSchema.parse(state)).toEqual(state);
      expect(face(state, 4), `event ${index}`).toEqual(index >= 28 ? ['Ah', 'Jh'] : undefined);
      expect(face(state, 2), `event ${index}`).toEqual(index >= 31 ? ['Jd', '3d'] : undefined);
      expect(face(state, 6)).toBeUndefined();
      const text = JSON.stringify(state);
      for (const hidden of ['8h', '8c']) expect(text).not.toContain(`"${hidden}"`);
      expect(text).not.toMatch(/Brelan|Three eights/);
      expect(state.showdown?.order ?? null).toEqual(index >= 27 ? [4, 6, 2] : null);
      // The pot is settled at seat 2's shown: no winner before it, even with the seat 6 mucked.
      expect(state.showdown?.pots[0]?.award ?? null, `event ${index}`).toEqual(
        index >= 31 ? { winners: [2], shares: { 2: 900 }, odd: {}, rake: 0 } : null,
      );
    });
    expect(scenario.events).toHaveLength(states.length);
    const end = states.at(-1);
    expect(end?.seats.find((s) => s.seat === 6)?.status).toBe('mucked');
    expect(end?.seats.find((s) => s.seat === 2)?.tabled?.hand).toEqual({
      category: 'TWO_PAIR',
      name: { fr: 'Deux paires, valets et trois', en: 'Two pair, jacks and threes' },
    });
    expect(end?.showdown?.pots.map(({ award: _, ...pot }) => pot)).toEqual([
      { pot: 0, amount: 900, eligible: [2, 4, 6] },
    ]);
  });

  it('splits a side pot with its odd chip, names every tabled hand, and lists no order after an all-in', async () => {
    const { states } = await run('showdown/three-way-all-in-split.yaml');
    const end = states.at(-1);
    expect(end?.showdown).toMatchObject({ order: null, faceUp: true, ranking: null, pushed: true });
    expect(end?.showdown?.pots).toEqual([
      {
        pot: 0,
        amount: 1200,
        eligible: [1, 3, 5, 7],
        award: { winners: [1], shares: { 1: 1200 }, odd: {}, rake: 0 },
      },
      {
        pot: 1,
        amount: 1575,
        eligible: [3, 5, 7],
        award: { winners: [3, 5], shares: { 3: 788, 5: 787 }, odd: { 3: 1 }, rake: 0 },
      },
      {
        pot: 2,
        amount: 1350,
        eligible: [5, 7],
        award: { winners: [5], shares: { 5: 1350 }, odd: {}, rake: 0 },
      },
    ]);
    expect(end?.seats.map((seat) => seat.tabled?.hand?.name.en ?? seat.status)).toEqual([
      'Kings full of sevens',
      'Two pair, nines and sevens',
      'Two pair, nines and sevens',
      'Pair of sevens',
      'folded',
    ]);
    // Before the flop a tabled hand has no name yet: two cards are no poker hand.
    const preflop = states.find((state) => state.seats.some((seat) => seat.tabled));
    expect(preflop?.seats.find((seat) => seat.tabled)?.tabled?.hand).toBeNull();
  });

  it('keeps the cards of a winner who never showed secret', async () => {
    const { states } = await run('showdown/winner-never-shows.yaml');
    const end = states.at(-1);
    expect(end?.showdown?.pots[0]?.award?.winners).toEqual([3]);
    expect(states.every((state) => state.seats.every((seat) => seat.tabled === undefined))).toBe(true);
    for (const hidden of ['Qh', 'Qc', 'As', 'Kd'])
      expect(states.map((state) => JSON.stringify(state)).join()).not.toContain(`"${hidden}"`);
  });

  it('counts hole cards and names only board, burn and dead cards, state after state', async () => {
    const { scenario, states } = await run('clean/me-several-hands.yaml');
    let holeFaces = new Set<string>();
    states.forEach((state, index) => {
      const event = scenario.events[index];
      if (event?.type === 'hand.start') holeFaces = new Set();
      if (event?.type === 'card.seen' && event.zone.startsWith('seat:'))
        holeFaces.add(`${event.deck}:${event.face}`);
      expect(publicStateSchema.parse(state)).toEqual(state);
      const named = [...state.board, ...state.burn, ...state.dead].flatMap((card) =>
        'face' in card ? [`${card.deck}:${card.face}`] : [],
      );
      expect(named.filter((face) => holeFaces.has(face))).toEqual([]);
    });
    const dealt = states.find((state) => state.phase === 'betting');
    expect(dealt?.seats.every((seat) => seat.cards === 2)).toBe(true);
    expect(states.at(-1)?.hand).toBeGreaterThan(1);
  });
});
