import type { PublicState } from '../outputs/public.js';
import type { OpenCall, TableTile } from './protocol.js';

/**
 * What waits for the floor at a table, from its public state: the open incident with its ruling, article
 * and the step the dealer is on, or the dealer's call (the hand waits for the floor's decision). `since`
 * is the table's when it says it (`call.since`), else `seen`: when the floor first saw it.
 */
export function openCall(table: string, state: PublicState, key: string, seen: number): OpenCall {
  const incident = state.incident;
  const coming = state.call?.key === key ? (state.call.coming ?? null) : null;
  const since = state.call?.key === key ? state.call.since : seen;
  if (!incident) {
    return {
      table,
      key,
      kind: 'call',
      urgent: true,
      since,
      hand: state.hand,
      incident: null,
      ruling: null,
      rule: null,
      reason: null,
      seats: [],
      step: 0,
      steps: 0,
      stepText: null,
      coming,
    };
  }
  const step = incident.steps[incident.step];
  return {
    table,
    key,
    kind: 'incident',
    urgent: incident.floor || incident.ruling === 'CALL_FLOOR' || state.phase === 'floor',
    since,
    hand: state.hand,
    incident: incident.incident,
    ruling: incident.ruling,
    rule: incident.rule,
    reason: incident.reason ?? null,
    seats: incident.seats,
    step: incident.step,
    steps: incident.steps.length,
    stepText: step?.text ?? null,
    coming,
  };
}

/** The order of the room's list: a dealer's call and the floor's procedures first, then the oldest. */
export function byUrgency(a: OpenCall, b: OpenCall): number {
  if (a.urgent !== b.urgent) return a.urgent ? -1 : 1;
  return a.since - b.since || (a.table < b.table ? -1 : a.table > b.table ? 1 : 0);
}

/** Every open call of the room's tables, most urgent first. */
export function openCalls(tiles: Iterable<TableTile>): OpenCall[] {
  const calls: OpenCall[] = [];
  for (const tile of tiles) if (tile.call) calls.push(tile.call);
  return calls.sort(byUrgency);
}
