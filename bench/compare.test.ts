import { describe, expect, it } from 'vitest';
import { compareRuns, readRun } from './compare.js';

describe('readRun', () => {
  it('reads the last JSON line of a run, after its table', () => {
    const output = [
      'machine…',
      'figure  value',
      'machine_events_per_s  60000',
      '{"machine_events_per_s":60000}',
      '',
    ];
    expect(readRun(output.join('\n'))).toEqual({ machine_events_per_s: 60000 });
  });

  it('refuses output without figures', () => {
    expect(() => readRun('machine failed: boom\n')).toThrow(/no JSON line/);
  });
});

describe('compareRuns', () => {
  const before = {
    machine_events_per_s: 60_000,
    alert_after_card_p50_ms: 1,
    cold_start_ms: 1000,
    someday_figure: 5,
  };

  it('flags a rate that fell and a time that grew past the threshold, each in its own direction', () => {
    const after = {
      machine_events_per_s: 45_000,
      alert_after_card_p50_ms: 1.5,
      cold_start_ms: 800,
      someday_figure: 50,
    };
    const rows = compareRuns(before, after, 0.2);
    expect(rows.find((row) => row.figure === 'machine_events_per_s')).toMatchObject({
      ratio: 0.75,
      worse: true,
    });
    expect(rows.find((row) => row.figure === 'alert_after_card_p50_ms')).toMatchObject({
      ratio: 1.5,
      worse: true,
    });
    // Faster is better, and a figure of unknown direction is never flagged.
    expect(rows.find((row) => row.figure === 'cold_start_ms')).toMatchObject({ ratio: 0.8, worse: false });
    expect(rows.find((row) => row.figure === 'someday_figure')).toMatchObject({ ratio: 10, worse: false });
  });

  it('keeps changes within the threshold, and figures one run lacks, unflagged', () => {
    const rows = compareRuns(
      before,
      { machine_events_per_s: 55_000, alert_after_card_p50_ms: null, replay_10k_hands_s: 4 },
      0.2,
    );
    expect(rows.filter((row) => row.worse)).toEqual([]);
    expect(rows.find((row) => row.figure === 'alert_after_card_p50_ms')).toMatchObject({
      after: null,
      ratio: null,
    });
    expect(rows.find((row) => row.figure === 'replay_10k_hands_s')).toMatchObject({ before: null, after: 4 });
  });
});
