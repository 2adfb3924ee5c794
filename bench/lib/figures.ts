/** The figures of `npm run bench` (issue 6): their names are the final JSON line's keys. */

/** What one benchmark process hands the runner: its figures, null for one it could not measure. */
export type Figures = Record<string, number | null>;

export interface Figure {
  name: string;
  unit: string;
  /** Which way is better, for the regression script. */
  better: 'higher' | 'lower';
  /** The target on the 2-core x86 reference machine, as text; none for a figure only reported. */
  target?: string;
}

/** Every figure, in report order, each under the benchmark (a file in bench/) that measures it. */
/** The floor's figures for one room size (bench/floor.ts measures 200 and 1,000 tables alike). */
function roomFigures(prefix: string, targets: { p99?: string; rss?: string } = {}): Figure[] {
  return [
    { name: `${prefix}_tables`, unit: 'tables', better: 'higher' },
    { name: `${prefix}_incident_p50_ms`, unit: 'ms', better: 'lower' },
    { name: `${prefix}_incident_p99_ms`, unit: 'ms', better: 'lower', target: targets.p99 },
    { name: `${prefix}_incident_samples`, unit: 'incidents', better: 'higher' },
    { name: `${prefix}_rss_mb`, unit: 'MB', better: 'lower', target: targets.rss },
    { name: `${prefix}_cpu_percent`, unit: '% of a core', better: 'lower' },
    { name: `${prefix}_rebuild_ms`, unit: 'ms', better: 'lower' },
  ];
}

export const FIGURES: Record<string, Figure[]> = {
  machine: [
    { name: 'machine_events_per_s', unit: 'events/s', better: 'higher', target: '≥ 50,000' },
    { name: 'bare_xstate_events_per_s', unit: 'events/s', better: 'higher' },
    { name: 'machine_vs_bare_xstate', unit: '×', better: 'lower', target: '≤ 4' },
    { name: 'chart_vs_bare_xstate', unit: '×', better: 'lower' },
    { name: 'chart_at_rest_vs_bare_xstate', unit: '×', better: 'lower' },
    { name: 'poker_vs_bare_xstate', unit: '×', better: 'lower' },
  ],
  e2e: [
    { name: 'alert_after_card_p50_ms', unit: 'ms', better: 'lower', target: '≤ 5' },
    { name: 'alert_after_card_p99_ms', unit: 'ms', better: 'lower', target: '≤ 20' },
    { name: 'alert_floor_p50_ms', unit: 'ms', better: 'lower' },
    { name: 'alert_floor_p99_ms', unit: 'ms', better: 'lower' },
    { name: 'alert_after_card_vs_floor_p50', unit: '×', better: 'lower', target: '≤ 3' },
    { name: 'pty_p50_ms', unit: 'ms', better: 'lower' },
    { name: 'sqlite_full_insert_p50_ms', unit: 'ms', better: 'lower' },
    { name: 'websocket_p50_ms', unit: 'ms', better: 'lower' },
    { name: 'alert_after_card_samples', unit: 'incidents', better: 'higher' },
    { name: 'alert_after_card_not_at_read', unit: 'incidents', better: 'lower' },
    {
      name: 'alert_after_cycle_p50_ms',
      unit: 'ms',
      better: 'lower',
      target: '≤ 2 × reader_round_ms + 5',
    },
    { name: 'alert_after_cycle_p99_ms', unit: 'ms', better: 'lower' },
    { name: 'reader_round_ms', unit: 'ms', better: 'lower', target: 'configured: 100' },
    { name: 'alert_after_cycle_samples', unit: 'incidents', better: 'higher' },
    { name: 'alert_after_cycle_misjudged', unit: 'incidents', better: 'lower' },
    { name: 'alert_after_cycle_no_rounds_p50_ms', unit: 'ms', better: 'lower' },
    { name: 'alert_after_cycle_no_rounds_p99_ms', unit: 'ms', better: 'lower' },
    { name: 'alert_after_cycle_no_rounds_samples', unit: 'incidents', better: 'higher' },
    { name: 'alert_after_cycle_no_rounds_misjudged', unit: 'incidents', better: 'lower' },
  ],
  replay: [
    { name: 'replay_10k_hands_s', unit: 's', better: 'lower', target: '≤ 10' },
    { name: 'replay_10k_hands_events', unit: 'events', better: 'higher' },
    { name: 'recovery_10k_hands_s', unit: 's', better: 'lower' },
    { name: 'journal_replay_10k_hands_s', unit: 's', better: 'lower', target: '≤ 10' },
  ],
  start: [
    { name: 'rss_mb_start', unit: 'MB', better: 'lower', target: '≤ 150' },
    { name: 'cold_start_ms', unit: 'ms', better: 'lower', target: '≤ 1,500' },
    { name: 'cold_start_10k_hands_ms', unit: 'ms', better: 'lower', target: '≤ 1,500' },
    { name: 'journal_verify_s_per_million', unit: 's', better: 'lower' },
    { name: 'journal_background_verify_s_per_million', unit: 's', better: 'lower' },
  ],
  rss: [
    { name: 'rss_mb_first_pass', unit: 'MB', better: 'lower' },
    { name: 'rss_mb_before_100k_hands', unit: 'MB', better: 'lower' },
    { name: 'rss_mb_after_100k_hands', unit: 'MB', better: 'lower', target: '≤ 150' },
    { name: 'rss_growth_100k_hands', unit: '×', better: 'lower', target: '≤ 1.10' },
    { name: 'heap_mb_before_100k_hands', unit: 'MB', better: 'lower' },
    { name: 'heap_mb_after_100k_hands', unit: 'MB', better: 'lower' },
    { name: 'pipeline_hands_per_s', unit: 'hands/s', better: 'higher' },
  ],
  journal: [
    { name: 'journal_events_per_s', unit: 'events/s', better: 'higher' },
    { name: 'journal_p50_ms', unit: 'ms', better: 'lower' },
    { name: 'journal_p99_ms', unit: 'ms', better: 'lower' },
  ],
  reads: [
    { name: 'reads_per_s_no_loss', unit: 'reads/s', better: 'higher', target: '≥ 20,000' },
    { name: 'reads_changes_expected', unit: 'changes', better: 'higher' },
    { name: 'reads_changes_lost', unit: 'changes', better: 'lower' },
  ],
  evaluator: [
    { name: 'evaluator_hands_per_s', unit: 'hands/s', better: 'higher' },
    { name: 'evaluator_library_hands_per_s', unit: 'hands/s', better: 'higher' },
    { name: 'evaluator_load_rss_mb', unit: 'MB', better: 'lower' },
  ],
  showdown: [
    { name: 'showdown_us_per_hand', unit: 'µs', better: 'lower' },
    { name: 'showdown_events_per_hand', unit: 'events', better: 'higher' },
    { name: 'showdown_share_of_hand_percent', unit: '% of the hand', better: 'lower' },
  ],
  floor: [
    { name: 'table_msgs_per_s', unit: 'messages/s', better: 'lower' },
    { name: 'table_bytes_per_s', unit: 'B/s', better: 'lower' },
    { name: 'table_chip_msgs_per_s', unit: 'messages/s', better: 'lower' },
    { name: 'table_state_msgs_per_s', unit: 'messages/s', better: 'lower' },
    ...roomFigures('floor', { p99: '≤ 250', rss: '≤ 200' }),
    ...roomFigures('floor_1k'),
  ],
};

export const BENCHMARKS = Object.keys(FIGURES);

export function figureNamed(name: string): Figure | undefined {
  return Object.values(FIGURES)
    .flat()
    .find((figure) => figure.name === name);
}
