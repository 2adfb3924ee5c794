import type { SnapshotFrom } from 'xstate';
import type { DomainEvent } from '../domain/events.js';
import type { TableOutput } from '../rules/types.js';
import type { tableMachine } from './machine.js';

/*
 * What the table gives its outputs (the MQTT publisher, the display, the log) for each event: the
 * outputs read it here, downstream of the table, not from the controller that runs the pipeline.
 */

export type TableSnapshot = SnapshotFrom<typeof tableMachine>;

/** One event judged: the incidents and prompts it brought out, and where the table stands after it. */
export interface TableUpdate {
  event: DomainEvent;
  outputs: TableOutput[];
  snapshot: TableSnapshot;
  /** The event started a hand: a `hand.start`, or a `next-hand` the table started one for. */
  started: boolean;
}
