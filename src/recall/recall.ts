import { createActor } from 'xstate';
import type { DomainEvent } from '../domain/events.js';
import { JournalError } from '../journal/errors.js';
import type { Hand, Journal } from '../journal/store.js';
import type { TableOutput } from '../rules/types.js';
import { tableMachine } from '../table/machine.js';
import { restoreTable, storedTableConfig } from '../table/persist.js';
import type { TableConfig } from '../table/reduce.js';
import { brokenRecords, type ChainMark, type KnownBreaks, markOf } from './marks.js';

/** One line of a recalled hand, in the order they happened: an event, or what the table ruled on it. */
export type RecallLine = { kind: 'event'; event: DomainEvent } | TableOutput;

export interface RecalledHand extends Hand {
  lines: RecallLine[];
  /** The broken record it holds or follows, when the chain cannot vouch for it. */
  broken?: ChainMark;
}

/**
 * A hand as the journal holds it (game recall): every event, and after each the incidents and prompts
 * the table ruled on it, rebuilt through the same machine from the hand's snapshot (the machine is a pure
 * function of its events, so this is what the dealer was shown). Full: hole cards are in it, for
 * supervisors and surveillance only. Who did what is in the events: a floor decision names its supervisor.
 * With the broken records `known`, a hand the chain cannot vouch for carries its mark.
 */
export function recallHand(
  journal: Journal,
  number: number,
  config: TableConfig,
  known?: KnownBreaks,
): RecalledHand | null {
  const hand = journal.hand(number);
  if (!hand) return null;
  const mark = known && markOf(hand, journal.hand(number + 1)?.firstRecord, brokenRecords(known));
  return { ...hand, lines: judgedLines(journal, hand, number, config), ...(mark && { broken: mark }) };
}

function judgedLines(journal: Journal, hand: Hand, number: number, config: TableConfig): RecallLine[] {
  const events = journal.eventsBetween(hand.firstSeq, hand.lastSeq);
  const [first, ...rest] = events;
  const stored = journal.handSnapshot(number);
  // The hand is judged under the rulebook it was played under, whatever the config says today.
  const played = (stored && storedTableConfig(stored)) ?? config;
  const restored = stored && restoreTable(stored, played);
  // A snapshot holds the outputs of its hand.start; without a usable one the hand is rebuilt from it.
  const actor = restored ?? createActor(tableMachine, { input: played });
  actor.start();
  const lines: RecallLine[] = [];
  const judged = (event: DomainEvent) => {
    lines.push({ kind: 'event', event }, ...actor.getSnapshot().context.outputs);
  };
  if (first) {
    if (!restored) actor.send(first);
    judged(first);
  }
  for (const event of rest) {
    actor.send(event);
    judged(event);
  }
  actor.stop();
  return lines;
}

export interface RecentHandIncidents extends Hand {
  outputs: TableOutput[];
  broken?: ChainMark;
  /** A record of it cannot be read back (its body is not JSON): its rulings cannot be given. */
  unreadable?: string;
}

/**
 * The incidents of the last `limit` hands, newest first: what a supervisor reviews on the display, each
 * marked when the chain cannot vouch for it (`known`).
 */
export function recentIncidents(
  journal: Journal,
  limit: number,
  config: TableConfig,
  known?: KnownBreaks,
): RecentHandIncidents[] {
  const hands = journal.hands(limit);
  const broken = known && brokenRecords(known);
  return hands
    .map((hand, i) => {
      const mark = broken && markOf(hand, hands[i + 1]?.firstRecord, broken);
      const marked = { ...hand, ...(mark && { broken: mark }) };
      try {
        const lines = judgedLines(journal, hand, hand.number, config);
        return { ...marked, outputs: lines.filter((line): line is TableOutput => line.kind !== 'event') };
      } catch (error) {
        // A record that cannot be read back is named (never shown); the other hands are recalled.
        if (!(error instanceof JournalError)) throw error;
        return { ...marked, outputs: [], unreadable: error.message };
      }
    })
    .reverse();
}
