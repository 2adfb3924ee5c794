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
