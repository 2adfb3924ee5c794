import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createActor } from 'xstate';
import {
  type PublicIncident,
  type PublicState,
  publicOutput,
  publicState,
} from '../../src/outputs/public.js';
import { parseScenarioText } from '../../src/scenario/load.js';
import { tableMachine } from '../../src/table/machine.js';
import { PACKAGE_ROOT } from '../../src/version.js';

/**
 * What a table's public topics carried while it played a scenario file: each public state it went
 * through and the incidents raised on the way, in order. The load generator plays them over and over,
 * so the floor reads the payloads real tables publish (their sizes, their incidents and procedures).
 */
export interface Frame {
  state: PublicState;
  /** Raised by the event that led to this state: published on `incident` just before it. */
  incidents: PublicIncident[];
}

export interface Tape {
  file: string;
  frames: Frame[];
  /** The frame that raises its first incident and shows its procedure open, or -1: a clean hand. */
  incidentAt: number;
}

/** Hands without incident, and hands with the incidents a floor meets most (and a floor call). */
export const CLEAN_TAPES = [
  'test/scenarios/clean/me-several-hands.yaml',
  'test/scenarios/clean/me-heads-up.yaml',
  'test/scenarios/clean/tda-noisy-ten-handed.yaml',
  'test/scenarios/clean/fc-folded-cards-to-muck.yaml',
] as const;

export const INCIDENT_TAPES = [
  'test/scenarios/main-event-2014/exposed-card-dealer-card-2.yaml',
  'test/scenarios/main-event-2014/flop-no-burn-identifiable.yaml',
  'test/scenarios/main-event-2014/premature-turn.yaml',
  'test/scenarios/main-event-2014/foreign-card-deal.yaml',
  'test/scenarios/main-event-2014/duplicate-card.yaml',
  'test/scenarios/french-casino/seat-skipped.yaml',
  'test/scenarios/french-casino/card-to-wrong-seat-new-player.yaml',
] as const;

/** Plays `file` (a path from the package root) through the table machine, state after state. */
export function recordTape(file: string): Tape {
  const scenario = parseScenarioText(readFileSync(join(PACKAGE_ROOT, file), 'utf8'), file);
  const actor = createActor(tableMachine, {
    input: {
      seats: scenario.table.seats,
      profile: scenario.profile,
      orderWindowMs: scenario.table.orderWindowMs,
    },
  });
  actor.start();
  const frames: Frame[] = [];
  let last = '';
  for (const event of scenario.events) {
    actor.send(event);
    const snapshot = actor.getSnapshot();
    const incidents = snapshot.context.outputs
      .map(publicOutput)
      .filter((output): output is PublicIncident => output.kind === 'incident');
    const state = publicState(snapshot);
    const said = JSON.stringify(state);
    if (said === last && incidents.length === 0) continue;
    last = said;
    frames.push({ state, incidents });
  }
  actor.stop();
  const incidentAt = frames.findIndex((frame) => frame.incidents.length > 0 && frame.state.incident !== null);
  return { file, frames, incidentAt };
}
