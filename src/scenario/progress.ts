import type { DomainEvent } from '../domain/events.js';
import type { IncidentReport, TableOutput } from '../rules/types.js';
import { startTable, step } from '../table/machine.js';
import { settleAllAfter, type TableConfig } from '../table/reduce.js';
import type { OpenIncident } from '../table/state.js';

/**
 * What the rest of the file did with an incident's procedure, step codes in procedure order. A step
 * in neither list was never done: the file ended on it, or a new hand or the floor's decision closed
 * the procedure first.
 */
export interface Progress {
  /** Steps that went on without the dealer's confirm: the sensors showed them done. */
  sensed: string[];
  /** Steps a `dealer: confirm` moved on from. */
  confirmed: string[];
}

/** A replay's incidents and prompts, and the progress of each incident's procedure. */
export interface Replay {
  outputs: TableOutput[];
  progress: ReadonlyMap<IncidentReport, Progress>;
}

/** An open procedure as followed from outside the machine: the step it was on after the last event. */
interface Followed {
  report: IncidentReport;
  step: number;
  progress: Progress;
}

/**
 * Replays the events as `replayEvents` does (src/table/table.ts), and reads each procedure's progress
 * off the table's successive snapshots (`context.open`) and the events between them: the machine
 * itself keeps no record of who did a step.
 */
export function replayWithProgress(config: TableConfig, events: readonly DomainEvent[]): Replay {
  const outputs: TableOutput[] = [];
  const progress = new Map<IncidentReport, Progress>();
  const followed = new Map<string, Followed>();
  let table = startTable(config);
  const send = (event: DomainEvent) => {
    const before = table.context.open[0];
    table = step(table, event);
    const { open, outputs: brought } = table.context;
    outputs.push(...brought);
    for (const report of brought) {
      if (report.kind !== 'incident') continue;
      const started = { sensed: [], confirmed: [] };
      progress.set(report, started);
      followed.set(keyOf(report), { report, step: 0, progress: started });
    }
    follow(followed, event, before, open);
  };
  for (const event of events) send(event);
  const last = events[events.length - 1];
  // The end of the file, as replayEvents settles it: every judgment that waits on time is made.
  if (last) send({ type: 'settle', t: last.t + settleAllAfter(table.context), seq: last.seq });
  return { outputs, progress };
}

/**
 * Moves each followed procedure to the step the table shows it on after `event`. A confirm moves the
 * first open procedure one step on (the machine's only use of it); every other step that went on did
 * so by itself, on what the sensors showed. A procedure gone from the table was done to its end,
 * unless the event is one that closes procedures unfinished.
 */
function follow(
  followed: Map<string, Followed>,
  event: DomainEvent,
  first: OpenIncident | undefined,
  open: readonly OpenIncident[],
): void {
  const now = new Map(open.map((incident) => [keyOf(incident.report), incident.step]));
  let confirming = event.type === 'dealer' && event.input === 'confirm' && first ? keyOf(first.report) : null;
  for (const [key, item] of followed) {
    const step = now.get(key) ?? (closesProcedures(event) ? item.step : item.report.steps.length);
    for (; item.step < step; item.step++) {
      const code = item.report.steps[item.step]?.code ?? '';
      (key === confirming ? item.progress.confirmed : item.progress.sensed).push(code);
      if (key === confirming) confirming = null;
    }
    if (!now.has(key)) followed.delete(key);
  }
}

/** A new hand ends the last one's procedures; the floor's decision ends the ones it overrules. */
function closesProcedures(event: DomainEvent): boolean {
  if (event.type === 'hand.start') return true;
  return event.type === 'dealer' && (event.input === 'next-hand' || event.input === 'floor-decision');
}

/** An incident as the table reports it: the same in its output and in its open procedure. */
function keyOf(report: IncidentReport): string {
  const cards = report.cards.map((card) => card.uid);
  return JSON.stringify([report.at, report.incident, report.ruling, report.seats, cards]);
}
