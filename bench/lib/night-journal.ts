import { createActor } from 'xstate';
import type { DomainEvent } from '../../src/domain/events.js';
import type { Journal } from '../../src/journal/store.js';
import { tableMachine } from '../../src/table/machine.js';
import { MACHINE_VERSION, persistTable } from '../../src/table/persist.js';
import type { TableConfig } from '../../src/table/reduce.js';

/**
 * A night's journal as live play leaves it (each event ahead of the machine, a snapshot after each hand
 * start), written a hand per transaction to be quick; returns the table the night ended with.
 */
export function writeNightJournal(
  journal: Journal,
  events: Iterable<Omit<DomainEvent, 'seq'>>,
  config: TableConfig,
) {
  const live = createActor(tableMachine, { input: config }).start();
  let hand: Omit<DomainEvent, 'seq'>[] = [];
  const write = () => {
    for (const event of journal.appendBatch(hand as never)) {
      live.send(event);
      if (event.type === 'hand.start') journal.snapshot(event.seq, MACHINE_VERSION, persistTable(live));
    }
    hand = [];
  };
  for (const event of events) {
    if (event.type === 'hand.start') write();
    hand.push(event);
  }
  write();
  const ended = live.getSnapshot();
  live.stop();
  return ended;
}
