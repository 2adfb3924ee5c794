import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { IncidentReport } from '../../../src/rules/types.js';
import { loadScenario, parseScenarioText } from '../../../src/scenario/load.js';
import { replayWithProgress } from '../../../src/scenario/progress.js';
import { replayEvents } from '../../../src/table/table.js';

type Item = Record<string, unknown>;

/** Button 4, players 1–4 (deal order 1 2 3 4), chips and puck sensors; `items` follow the hand's start. */
function replay(items: Item[]) {
  const scenario = loadScenario(
    {
      name: 'unit',
      profile: 'main-event-2014',
      table: { seats: 6 },
      decks: ['A', 'B'],
      events: [
        { 'hand.start': { button: 4, players: [1, 2, 3, 4], blinds: [50, 100], deck: 'A' } },
        ...items,
      ],
    },
    'unit.yaml',
  );
  return replayWithProgress(scenario.config, scenario.events);
}

/** Each incident with the steps it had sensed and confirmed by the end. */
function progress(items: Item[]) {
  const { outputs, progress: of } = replay(items);
  return outputs.flatMap((output) =>
    output.kind === 'incident' ? [{ incident: output.incident, ...of.get(output as IncidentReport) }] : [],
  );
}

const confirm: Item = { dealer: { input: 'confirm' } };
/** Seat 2's card, the second of the deal, exposed by the dealer: MISDEAL. */
const MISDEAL: Item[] = [
  { card: { zone: 'seat:1', card: 'As' } },
  { card: { zone: 'seat:2', card: 'Kd' } },
  { dealer: { input: 'exposed', zone: 'seat:2', by: 'dealer' } },
];
const READY_52: Item = { shuffler: { state: 'ready', deck: 'A', count: 52 } };

describe('procedure progress read off the replay', () => {
  it('gives the outputs replayEvents gives, the end of the file settled', () => {
    for (const name of ['me-premature-flop.yaml', 'fc-premature-river-last-to-act.json']) {
      const file = new URL(`../../../../shared/scenarios/${name}`, import.meta.url);
      const scenario = parseScenarioText(readFileSync(file, 'utf8'), name);
      expect(replayWithProgress(scenario.config, scenario.events).outputs).toEqual(
        replayEvents(scenario.config, scenario.events),
      );
    }
  });

  it('a confirm moves the step the dealer is on; a step the sensors showed goes on by itself', () => {
    expect(progress([...MISDEAL, confirm, { gone: { zone: 'seat:1', card: 'As' } }])).toEqual([
      { incident: 'EXPOSED_CARD', sensed: [], confirmed: ['STOP_DEAL'] },
    ]);
    expect(
      progress([
        ...MISDEAL,
        confirm,
        { gone: { zone: 'seat:1', card: 'As' } },
        { card: { zone: 'muck', card: 'Kd' } },
      ]),
    ).toEqual([{ incident: 'EXPOSED_CARD', sensed: ['COLLECT_CARDS'], confirmed: ['STOP_DEAL'] }]);
  });

  it('counts as sensed the steps shown before they were reached, when a confirm reaches them', () => {
    // The puck and the deck are read first; the third confirm moves RETURN_BETS, and the steps the
    // sensors already showed go on in the same event.
    const items = [...MISDEAL, { button: { seat: 4 } }, READY_52, confirm, confirm, confirm];
    expect(progress(items)).toEqual([
      {
        incident: 'EXPOSED_CARD',
        sensed: ['BUTTON_STAYS', 'RESHUFFLE'],
        confirmed: ['STOP_DEAL', 'COLLECT_CARDS', 'RETURN_BETS'],
      },
    ]);
  });

  it('gives a confirm to the first open procedure only', () => {
    // The puck on seat 1 (the button is 4): MOVE_BUTTON, then the 5th card exposed: REPLACE_AT_END.
    const items: Item[] = [
      { button: { seat: 1 } },
      ...['As', 'Kd', 'Qh', 'Jc', '2s'].map((card, i) => ({ card: { zone: `seat:${(i % 4) + 1}`, card } })),
      { dealer: { input: 'exposed', zone: 'seat:1', by: 'dealer' } },
      confirm,
      confirm,
    ];
    expect(progress(items)).toEqual([
      { incident: 'BUTTON_MISPLACED', sensed: [], confirmed: ['MOVE_BUTTON'] },
      { incident: 'EXPOSED_CARD', sensed: [], confirmed: ['SET_APART'] },
    ]);
  });

  it('leaves undone the steps of a procedure a new hand or the floor closed', () => {
    const redeal = { 'hand.start': { button: 4, players: [1, 2, 3, 4], blinds: [50, 100], deck: 'A' } };
    expect(progress([...MISDEAL, confirm, redeal])).toEqual([
      { incident: 'EXPOSED_CARD', sensed: [], confirmed: ['STOP_DEAL'] },
    ]);
    const overruled = { dealer: { input: 'floor-decision', value: 'continue', supervisor: 'Marie' } };
    expect(progress([...MISDEAL, overruled, confirm])).toEqual([
      { incident: 'EXPOSED_CARD', sensed: [], confirmed: [] },
    ]);
  });
});
