import { createActor } from 'xstate';
import type { DomainEvent } from '../domain/events.js';
import type { TableOutput } from '../rules/types.js';
import { tableMachine } from './machine.js';
import { settleAllAfter, type TableConfig } from './reduce.js';

export type { TableConfig };

/** Runs the events through a fresh table machine, then settles the reordering window; returns every incident/prompt in order. */
export function replayEvents(config: TableConfig, events: readonly DomainEvent[]): TableOutput[] {
  const outputs: TableOutput[] = [];
  const actor = createActor(tableMachine, { input: config });
  actor.start();
  const send = (event: DomainEvent) => {
    actor.send(event);
    outputs.push(...actor.getSnapshot().context.outputs);
  };
  for (const event of events) send(event);
  const last = events[events.length - 1];
  // The end of the file: every judgment that waits on time is settled.
  if (last) send({ type: 'settle', t: last.t + settleAllAfter(actor.getSnapshot().context), seq: last.seq });
  actor.stop();
  return outputs;
}
