import { type AnyActor, assign, createActor, setup } from 'xstate';
import type { DomainEvent } from '../src/domain/events.js';
import { tableMachine } from '../src/table/machine.js';
import { initialContext, reduce } from '../src/table/reduce.js';
import type { TableContext, Verdict } from '../src/table/state.js';
import { benchmark, progress } from './lib/child.js';
import { BENCH_TABLE_CONFIG, corpusEvents, loadCorpus, replayedPasses } from './lib/corpus.js';
import { median, rounded } from './lib/stats.js';

/**
 * machine_events_per_s: the corpus's hands (irregularities and all) through the table machine, in
 * process; machine_vs_bare_xstate: the same events through an empty XState v5 machine, over ours;
 * chart_vs_bare_xstate: the same over our chart without its poker (the part of the ratio that is the
 * statechart's own); chart_at_rest_vs_bare_xstate: over our chart judging nothing and moving nowhere
 * (XState's own step of its regions and its context: the floor no poker can go under);
 * poker_vs_bare_xstate: the poker alone (`reduce`, no XState), over the bare machine (what is left of the
 * ratio once any actor at all carries the events: the bare one is the least an actor costs).
 */

/** The framework alone: every event through one trivial assign. */
const bareMachine = setup({
  types: { context: {} as { events: number }, events: {} as DomainEvent },
}).createMachine({
  context: { events: 0 },
  on: { '*': { actions: assign({ events: ({ context }) => context.events + 1 }) } },
});

/**
 * Passes over the corpus per timed run, and timed runs of each machine (their median is reported): on a
 * shared host single runs of either vary by ±25%, and a median of five still moved the ratio by a third.
 */
const PASSES = 4;
const RUNS = 12;

/** Events per second through `actor`, started here; `--profile` looks at what runs under this name. */
function sendAll(actor: AnyActor, events: readonly DomainEvent[]): number {
  actor.on('output', () => undefined);
  actor.start();
  const started = performance.now();
  for (const event of events) actor.send(event);
  const elapsedMs = performance.now() - started;
  actor.stop();
  return (events.length / elapsedMs) * 1000;
}

/** Where the chart stood before each event (phase and board's mode) and the verdicts it was then given. */
interface ChartPass {
  before: Pick<TableContext, 'phase' | 'board'>[];
  verdicts: Verdict[][];
}

/** One pass of our machine over `events`: what the poker told the chart, and what the chart set for it. */
function chartPass(events: readonly DomainEvent[]): ChartPass {
  const actor = createActor(tableMachine, { input: BENCH_TABLE_CONFIG }).start();
  const pass: ChartPass = { before: [], verdicts: [] };
  for (const event of events) {
    const { phase, board } = actor.getSnapshot().context;
    pass.before.push({ phase, board });
    actor.send(event);
    pass.verdicts.push(actor.getSnapshot().context.verdicts);
  }
  actor.stop();
  return pass;
}

/** The poker alone: `reduce` over the events, given the phase and board's mode the chart had set before each. */
function poker(events: readonly DomainEvent[], chart: ChartPass): number {
  let context = initialContext(BENCH_TABLE_CONFIG);
  const started = performance.now();
  events.forEach((event, i) => {
    const set = chart.before[i] as ChartPass['before'][number];
    if (context.phase !== set.phase || context.board !== set.board) context = { ...context, ...set };
    context = reduce(context, event);
  });
  return (events.length / (performance.now() - started)) * 1000;
}

/**
 * The chart alone: our machine with each event's verdicts replayed instead of judged, so the states,
 * transitions, entry actions and context copies are ours and the poker costs nothing.
 */
function chart(events: readonly DomainEvent[], verdicts: readonly Verdict[][]): number {
  let next = 0;
  return judgedBy(
    assign(() => ({ verdicts: verdicts[next++] ?? [] })),
    events,
  );
}

/** Our chart at rest: each event one empty `assign`, no verdict ever, so it stays where it starts. */
function chartAtRest(events: readonly DomainEvent[]): number {
  return judgedBy(
    assign(() => ({})),
    events,
  );
}

/** Our chart with `judge` in place of the poker's. */
function judgedBy(judge: ReturnType<typeof assign>, events: readonly DomainEvent[]): number {
  const machine = tableMachine.provide({ actions: { judge } as never });
  return sendAll(createActor(machine, { input: BENCH_TABLE_CONFIG }), events);
}

const ours = (events: readonly DomainEvent[]) =>
  sendAll(createActor(tableMachine, { input: BENCH_TABLE_CONFIG }), events);
const bare = (events: readonly DomainEvent[]) => sendAll(createActor(bareMachine), events);

benchmark(async () => {
  const pass = corpusEvents(loadCorpus());
  const events = [...replayedPasses(pass, PASSES)];
  progress(`machine: ${events.length} events (${PASSES} passes over the corpus) per run`);
  // Warm-up: the JIT sees both machines before anything is timed.
  ours(pass);
  bare(pass);
  const played = chartPass(events);
  chart(events, played.verdicts);
  chartAtRest(pass);
  poker(events, played);
  const rates = {
    ours: [] as number[],
    bare: [] as number[],
    chart: [] as number[],
    rest: [] as number[],
    poker: [] as number[],
  };
  for (let run = 0; run < RUNS; run++) {
    rates.ours.push(ours(events));
    rates.bare.push(bare(events));
    rates.chart.push(chart(events, played.verdicts));
    rates.rest.push(chartAtRest(events));
    rates.poker.push(poker(events, played));
  }
  const machine = median(rates.ours);
  const framework = median(rates.bare);
  return {
    machine_events_per_s: rounded(machine),
    bare_xstate_events_per_s: rounded(framework),
    machine_vs_bare_xstate: rounded(framework / machine),
    chart_vs_bare_xstate: rounded(framework / median(rates.chart)),
    chart_at_rest_vs_bare_xstate: rounded(framework / median(rates.rest)),
    poker_vs_bare_xstate: rounded(framework / median(rates.poker)),
  };
});
