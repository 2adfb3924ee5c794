import { createActor } from 'xstate';
import type { DomainEvent } from '../domain/events.js';
import type { TableOutput } from '../rules/types.js';
import { tableMachine } from './machine.js';
import type { TableConfig } from './reduce.js';

export type { TableConfig };

/** Runs the events through a fresh table machine, then settles the reordering window; returns every incident/prompt in order. */
export function replayEvents(config: TableConfig, events: readonly DomainEvent[]): TableOutput[] {
  const outputs: TableOutput[] = [];
  const actor = createActor(tableMachine, { input: config });
  actor.on('output', ({ output }) => outputs.push(output));
  actor.start();
  for (const event of events) actor.send(event);
  const last = events[events.length - 1];
  if (last) actor.send({ type: 'settle', t: last.t + (config.orderWindowMs ?? 300), seq: last.seq });
  actor.stop();
  return outputs;
}
