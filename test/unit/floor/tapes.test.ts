import { describe, expect, it } from 'vitest';
import { CLEAN_TAPES, INCIDENT_TAPES, recordTape } from '../../../simulators/floor-load/tapes.js';
import { publicStateSchema } from '../../../src/outputs/public-schema.js';

describe("the load generator's recorded hands", () => {
  it.each(INCIDENT_TAPES)('%s raises an incident whose procedure the state shows open', (file) => {
    const tape = recordTape(file);
    expect(tape.incidentAt).toBeGreaterThanOrEqual(0);
    const frame = tape.frames[tape.incidentAt];
    expect(frame?.incidents[0]?.at).toBe(frame?.state.incident?.at);
  });

  it.each(CLEAN_TAPES)('%s is clean, and every state is one a table publishes', (file) => {
    const tape = recordTape(file);
    expect(tape.incidentAt).toBe(-1);
    expect(tape.frames.length).toBeGreaterThan(10);
    for (const { state } of tape.frames) expect(publicStateSchema.parse(state)).toEqual(state);
  });
});
