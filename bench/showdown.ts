import { type AnyActor, createActor } from 'xstate';
import type { DomainEvent } from '../src/domain/events.js';
import { loadScenario } from '../src/scenario/load.js';
import { tableMachine } from '../src/table/machine.js';
import type { TableConfig } from '../src/table/reduce.js';
import { replayEvents } from '../src/table/table.js';
import { generateSessionDetailed, type HandInfo, type Session } from '../test/soak/clean-hands.js';
import { benchmark, progress } from './lib/child.js';
import { median, rounded } from './lib/stats.js';

/**
 * showdown_us_per_hand: what the table machine spends on one hand's showdown, from the river's close to
 * the hand's end: the events after the river's last action (the bets collected, SHOW_ORDER, the hands
 * tabled or mucked unseen, each pot's award, the push, the cards to the muck), hand-end aside. Timed
 * event by event over the soak's clean hands (test/soak/clean-hands.ts: every profile, side pots,
 * splits, rake, reader noise) whose river was bet, each session's other events sent untimed; the median
 * of RUNS runs. showdown_events_per_hand: the events in that stretch; showdown_share_of_hand_percent:
 * its time against the whole hand's, the shuffler's report and next-hand included.
 */

const SESSIONS = 40;
const HANDS_PER_SESSION = 50;
const RUNS = 7;

/** A session ready to replay: its events, and for each hand whose river was bet, where its showdown lies. */
interface Replay {
  config: TableConfig;
  events: readonly DomainEvent[];
  /** Per event index: the hand it belongs to (a showdown hand only), and whether it is in its showdown. */
  hand: Int32Array;
  showdown: Uint8Array;
  hands: number;
}

/** Contested at the river: the last betting round closed with two hands or more. */
function riverBet(h: HandInfo): boolean {
  return h.showdown !== null && (h.outcome.kind === 'showdown' || h.outcome.street === 'river');
}

function prepare(session: Session): Replay {
  const { config, events } = loadScenario(session.scenario, `soak seed ${session.seed}`);
  const hand = new Int32Array(events.length).fill(-1);
  const showdown = new Uint8Array(events.length);
  const played = session.hands.filter(riverBet);
  for (const h of played) {
    let close = h.last;
    while (close > h.first && events[close]?.type !== 'action') close--;
    for (let i = h.first; i <= h.last; i++) {
      hand[i] = h.index;
      const e = events[i] as DomainEvent;
      showdown[i] = i > close && !(e.type === 'dealer' && e.input === 'hand-end') ? 1 : 0;
    }
  }
  return { config, events, hand, showdown, hands: played.length };
}

/** One pass over every session: microseconds in the showdowns and in their whole hands. */
function timed(replays: readonly Replay[]): { showdownUs: number; handUs: number } {
  let showdownUs = 0;
  let handUs = 0;
  for (const r of replays) {
    const actor: AnyActor = createActor(tableMachine, { input: r.config }).start();
    for (const [i, event] of r.events.entries()) {
      if (r.hand[i] === -1) {
        actor.send(event);
        continue;
      }
      const started = performance.now();
      actor.send(event);
      const us = (performance.now() - started) * 1000;
      handUs += us;
      if (r.showdown[i] === 1) showdownUs += us;
    }
    actor.stop();
  }
  return { showdownUs, handUs };
}

/**
 * The showdowns timed must be ones the machine awards, else the figure would time nothing; a few get
 * the hands' ranking instead (an amount never keyed), none of which the machine may skip.
 */
function checkAwards(replays: readonly Replay[], hands: number): void {
  let awarded = 0;
  for (const r of replays) {
    const seen = new Set<number>();
    for (const o of replayEvents(r.config, r.events))
      if (o.kind === 'award' && r.showdown[o.at] === 1) seen.add(r.hand[o.at] as number);
    awarded += seen.size;
  }
  if (awarded < hands * 0.8) throw new Error(`only ${awarded} of ${hands} showdowns awarded`);
}

benchmark(async () => {
  const replays = Array.from({ length: SESSIONS }, (_, i) =>
    prepare(generateSessionDetailed(i + 1, HANDS_PER_SESSION)),
  );
  const hands = replays.reduce((n, r) => n + r.hands, 0);
  checkAwards(replays, hands);
  const events = replays.reduce((n, r) => n + r.showdown.reduce((k, x) => k + x, 0), 0);
  progress(`showdown: ${hands} river showdowns of ${SESSIONS * HANDS_PER_SESSION} hands, ${RUNS} runs`);
  timed(replays); // warm-up: the JIT sees the showdown before anything is timed
  const runs = Array.from({ length: RUNS }, () => timed(replays));
  return {
    showdown_us_per_hand: rounded(median(runs.map((r) => r.showdownUs)) / hands),
    showdown_events_per_hand: rounded(events / hands),
    showdown_share_of_hand_percent: rounded(median(runs.map((r) => (100 * r.showdownUs) / r.handUs))),
  };
});
