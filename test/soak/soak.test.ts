import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/load.js';
import { replayEvents } from '../../src/table/table.js';
import { describeHand, generateSessionDetailed, handAt } from './clean-hands.js';

const HANDS = 10_000;
const PER_SESSION = 50;

describe('soak: random clean hands', () => {
  it(`${HANDS} clean hands raise no incident (a false alarm stops a real game)`, () => {
    const alarms: string[] = [];
    let events = 0;
    for (let seed = 1; seed <= HANDS / PER_SESSION; seed++) {
      const session = generateSessionDetailed(seed, PER_SESSION);
      const scenario = loadScenario(session.scenario, `soak seed ${seed}`);
      events += scenario.events.length;
      const outputs = replayEvents(scenario.config, scenario.events);
      for (const output of outputs) {
        if (output.kind !== 'incident') continue;
        const hand = handAt(session, output.at);
        const where = hand ? describeHand(session, hand.index, output.at) : `event ${output.at}`;
        if (alarms.length < 5)
          alarms.push(`${output.incident} ${output.ruling} seats ${output.seats}\n${where}`);
        else alarms.push(`${output.incident} seed ${seed} at ${output.at}`);
      }
    }
    expect(events).toBeGreaterThan(HANDS * 20);
    expect(alarms, alarms.slice(0, 5).join('\n\n')).toEqual([]);
  });
});
