import { describe, expect, it } from 'vitest';
import type { CardRef } from '../../../src/domain/cards.js';
import type { IncidentReport, PromptReport, TableOutput } from '../../../src/rules/types.js';
import { checkOutputs } from '../../../src/scenario/check.js';
import type { Expectation } from '../../../src/scenario/load.js';
import type { Progress } from '../../../src/scenario/progress.js';

const kd: CardRef = { uid: '0000000B', face: 'Kd', deck: 'A' };
const qd: CardRef = { uid: '0000000A', face: 'Qd', deck: 'A' };
const codeOf = (card: CardRef) => card.face ?? `?:${card.uid}`;

function incident(fields: Partial<IncidentReport>): IncidentReport {
  return {
    kind: 'incident',
    at: 4,
    incident: 'EXPOSED_CARD',
    ruling: 'MISDEAL',
    seats: [2],
    cards: [kd],
    secret: [],
    rule: 'main-event-2014 §III.e',
    floor: false,
    steps: [],
    ...fields,
  };
}

const showdown: PromptReport = {
  kind: 'prompt',
  at: 20,
  prompt: 'ALL_IN_SHOWDOWN',
  seats: [3, 5],
  rule: '§VI.c',
  steps: [],
};
const exposed: Expectation = { kind: 'incident', incident: 'EXPOSED_CARD', ruling: 'MISDEAL' };
const premature: Expectation = { kind: 'incident', incident: 'PREMATURE_FLOP', ruling: 'CALL_FLOOR' };
const check = (
  expected: Expectation[],
  outputs: TableOutput[],
  progress = new Map<IncidentReport, Progress>(),
) => checkOutputs(expected, { outputs, progress }, codeOf);

describe('checkOutputs', () => {
  it('passes when every incident is expected, in order', () => {
    const outputs = [incident({}), incident({ at: 9, incident: 'PREMATURE_FLOP', ruling: 'CALL_FLOOR' })];
    expect(check([exposed, premature], outputs)).toEqual([]);
  });

  it('matches incidents in order', () => {
    const outputs = [incident({ at: 9, incident: 'PREMATURE_FLOP', ruling: 'CALL_FLOOR' }), incident({})];
    expect(check([exposed, premature], outputs)).toEqual([
      'unexpected PREMATURE_FLOP (CALL_FLOOR) seats [2] cards [Kd] at 9',
      'expected PREMATURE_FLOP (CALL_FLOOR), got nothing',
    ]);
  });

  it('compares the ruling', () => {
    expect(check([exposed], [incident({ ruling: 'REPLACE_AT_END' })])).toEqual([
      'expected EXPOSED_CARD (MISDEAL), got EXPOSED_CARD (REPLACE_AT_END) seats [2] cards [Kd] at 4',
    ]);
  });

  it('compares seats and cards as sets, and at, only where given', () => {
    const output = incident({ seats: [2, 3], cards: [kd, qd] });
    expect(check([{ ...exposed, seats: [3, 2], cards: [qd, kd], at: 4 }], [output])).toEqual([]);
    expect(check([exposed], [output])).toEqual([]);
    expect(check([{ ...exposed, seats: [2] }], [output])).toHaveLength(1);
    expect(check([{ ...exposed, cards: [kd] }], [output])).toHaveLength(1);
    expect(check([{ ...exposed, at: 5 }], [output])).toEqual([
      'expected EXPOSED_CARD (MISDEAL) at 5, got EXPOSED_CARD (MISDEAL) seats [2, 3] cards [Kd, Qd] at 4',
    ]);
  });

  it('compares cards by tag, so a second copy of a face is another card', () => {
    const copy: CardRef = { ...kd, uid: '0000020B' };
    expect(check([{ ...exposed, cards: [kd] }], [incident({ cards: [copy] })])).toHaveLength(1);
  });

  it('fails on an incident the file does not expect, without shifting the later comparisons', () => {
    const outputs = [
      incident({}),
      incident({ at: 6, incident: 'FLOP_NO_BURN', ruling: 'CALL_FLOOR', cards: [qd] }),
      incident({ at: 9, incident: 'PREMATURE_FLOP', ruling: 'CALL_FLOOR' }),
    ];
    expect(check([exposed, premature], outputs)).toEqual([
      'unexpected FLOP_NO_BURN (CALL_FLOOR) seats [2] cards [Qd] at 6',
    ]);
    expect(check([], [incident({})])).toEqual([
      'unexpected EXPOSED_CARD (MISDEAL) seats [2] cards [Kd] at 4',
    ]);
  });

  it('fails on an expected incident that did not come', () => {
    expect(check([exposed, { ...premature, at: 9 }], [incident({})])).toEqual([
      'expected PREMATURE_FLOP (CALL_FLOOR) at 9, got nothing',
    ]);
  });

  it('ignores prompts the file does not expect', () => {
    expect(check([exposed], [incident({}), showdown])).toEqual([]);
  });

  it('checks prompts the file expects', () => {
    const prompt: Expectation = { kind: 'prompt', prompt: 'ALL_IN_SHOWDOWN', seats: [5, 3] };
    expect(check([prompt], [showdown])).toEqual([]);
    expect(check([prompt], [])).toEqual(['expected prompt ALL_IN_SHOWDOWN seats [5, 3], got nothing']);
    expect(check([prompt], [showdown, { ...showdown, at: 30 }])).toEqual([
      'unexpected prompt ALL_IN_SHOWDOWN seats [3, 5] at 30',
    ]);
  });

  it("compares the procedure's sensed and confirmed steps as sets, each where given", () => {
    const output = incident({});
    const progress = new Map([
      [output, { sensed: ['COLLECT_CARDS', 'RESHUFFLE'], confirmed: ['STOP_DEAL'] }],
    ]);
    const steps = (given: Partial<Progress>) => check([{ ...exposed, steps: given }], [output], progress);
    expect(steps({ sensed: ['RESHUFFLE', 'COLLECT_CARDS'], confirmed: ['STOP_DEAL'] })).toEqual([]);
    expect(steps({ confirmed: ['STOP_DEAL'] })).toEqual([]);
    expect(steps({})).toEqual([]);
    // Each list is the whole of it: a step sensed that the file does not list is a difference.
    expect(steps({ sensed: ['COLLECT_CARDS'] })).toEqual([
      'expected EXPOSED_CARD (MISDEAL) sensed [COLLECT_CARDS], got EXPOSED_CARD (MISDEAL) seats [2] cards [Kd] at 4 sensed [COLLECT_CARDS, RESHUFFLE] confirmed [STOP_DEAL]',
    ]);
    expect(steps({ confirmed: ['STOP_DEAL', 'REDEAL'] })).toHaveLength(1);
    expect(steps({ confirmed: [] })).toHaveLength(1);
  });

  it('reads no step done of an incident whose progress is not known', () => {
    expect(check([{ ...exposed, steps: { sensed: [], confirmed: [] } }], [incident({})])).toEqual([]);
    expect(check([{ ...exposed, steps: { confirmed: ['STOP_DEAL'] } }], [incident({})])).toEqual([
      'expected EXPOSED_CARD (MISDEAL) confirmed [STOP_DEAL], got EXPOSED_CARD (MISDEAL) seats [2] cards [Kd] at 4 sensed [] confirmed []',
    ]);
  });
});
