import { type Actor, createActor } from 'xstate';
import type { Journal } from '../journal/store.js';
import { tableMachine } from '../table/machine.js';
import { restoreTable } from '../table/persist.js';
import type { TableConfig } from '../table/reduce.js';

export interface Recovery {
  /** The table where the journal leaves it, started. */
  actor: Actor<typeof tableMachine>;
  /** How it was rebuilt: from the last hand's snapshot, from that hand's first event (a snapshot of another machine version), or from the journal's first event. */
  from: 'snapshot' | 'hand-start' | 'first-event';
  /** Events replayed onto it. */
  replayed: number;
  /** The last event's seq; -1 for an empty journal. */
  seq: number;
}

/**
 * The table as the journal leaves it: the last hand's snapshot, then every event after it, through
 * the same machine as live play (it is a pure function of its events, so this is the state play had).
 * Nothing times out inside the machine (the reordering window is closed by journaled settles), so
 * there is no deadline to re-arm. Outputs of the replayed events were told to the dealer already:
 * nobody listens to them here.
 */
export function recoverTable(journal: Journal, config: TableConfig): Recovery {
  const { snapshot, events } = journal.restorePoint();
  const restored = snapshot && restoreTable(snapshot, config);
  const seq = journal.lastSeq();
  const [actor, replay, from]: [Actor<typeof tableMachine>, typeof events, Recovery['from']] = restored
    ? [restored, events, 'snapshot']
    : snapshot
      ? [createActor(tableMachine, { input: config }), journal.eventsBetween(snapshot.seq, seq), 'hand-start']
      : [createActor(tableMachine, { input: config }), events, 'first-event'];
  actor.start();
  for (const event of replay) actor.send(event);
  return { actor, from, replayed: replay.length, seq };
}
