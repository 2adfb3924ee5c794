import { describe, expect, it } from 'vitest';
import type { PromptReport } from '../../src/rules/types.js';
import { loadScenario } from '../../src/scenario/load.js';
import { replayEvents } from '../../src/table/table.js';
import { describeHand, generateSessionDetailed, type HandInfo, handAt, type Session } from './clean-hands.js';

const HANDS = 10_000;
const PER_SESSION = 50;

/** The hand a NEXT_HAND prompt says the table started, against the one the generator dealt. */
function startedAsDealt(session: Session, prompt: PromptReport, hand: HandInfo | undefined): string | null {
  const got = [prompt.button, prompt.sb, prompt.bb, prompt.players, prompt.blinds];
  const dealt = hand && [hand.button, hand.sb, hand.bb, [...hand.players].sort((a, b) => a - b), hand.blinds];
  if (JSON.stringify(got) === JSON.stringify(dealt)) return null;
  const where = hand ? describeHand(session, hand.index, prompt.at) : `event ${prompt.at}`;
  return `NEXT_HAND button/sb/bb/players/blinds ${JSON.stringify(got)}, dealt ${JSON.stringify(dealt)}\n${where}`;
}

describe('soak: random clean hands', () => {
  it(`${HANDS} clean hands, each after the first started by next-hand, raise no incident (a false alarm stops a real game)`, () => {
    const alarms: string[] = [];
    let events = 0;
    let started = 0;
    for (let seed = 1; seed <= HANDS / PER_SESSION; seed++) {
      const session = generateSessionDetailed(seed, PER_SESSION);
      const scenario = loadScenario(session.scenario, `soak seed ${seed}`);
      events += scenario.events.length;
      const outputs = replayEvents(scenario.config, scenario.events);
      for (const output of outputs) {
        const hand = handAt(session, output.at);
        if (output.kind === 'prompt' && output.prompt === 'NEXT_HAND') {
          started++;
          const wrong = startedAsDealt(session, output, hand);
          if (wrong) alarms.push(wrong);
          continue;
        }
        if (output.kind !== 'incident') continue;
        const where = hand ? describeHand(session, hand.index, output.at) : `event ${output.at}`;
        if (alarms.length < 5)
          alarms.push(`${output.incident} ${output.ruling} seats ${output.seats}\n${where}`);
        else alarms.push(`${output.incident} seed ${seed} at ${output.at}`);
      }
    }
    expect(events).toBeGreaterThan(HANDS * 20);
    expect(alarms, alarms.slice(0, 5).join('\n\n')).toEqual([]);
    expect(started).toBe(HANDS - HANDS / PER_SESSION);
  });
});
