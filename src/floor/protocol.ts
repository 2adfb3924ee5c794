import type { PublicState, TableExtras } from '../outputs/public.js';
import type { IncidentCode, RulingCode, Text } from '../rules/types.js';

/**
 * What the floor service and its page say to each other (issue 20). The page opens a WebSocket on `/ws`
 * and receives `FloorMessage`s; a supervisor's sign-in and answers are POSTs. Everything in them comes
 * from the tables' public topics: no hole card is ever here.
 */

export type Language = 'fr' | 'en';

export type TableStatus = 'online' | 'offline' | 'halted' | 'unknown';

/** One table as the room's page shows it. */
export interface TableTile {
  id: string;
  /** Its retained status (`offline` is also its last will); `unknown` before any was heard. */
  status: TableStatus;
  version: string | null;
  profile: string | null;
  phase: PublicState['phase'] | null;
  street: PublicState['street'];
  hand: number | null;
  dealer: string | null;
  devices: NonNullable<TableExtras['devices']>;
  /** The open incident or the dealer's call, if any. */
  call: OpenCall | null;
}

/** What waits for the floor at a table: the dealer's call, or an incident's procedure under way. */
export interface OpenCall {
  table: string;
  /** The table's `call.key`: an answer names it, so that it reaches this call and no later one. */
  key: string;
  kind: 'call' | 'incident';
  /** A dealer's call, a procedure done under the floor's eye or a CALL_FLOOR ruling: first in the list. */
  urgent: boolean;
  /** Since when it waits (ms since the epoch): the table's clock, or the floor's first sight of it. */
  since: number;
  hand: number | null;
  incident: IncidentCode | null;
  ruling: RulingCode | null;
  /** The profile's article. */
  rule: string | null;
  reason: Text | null;
  seats: number[];
  /** The step the dealer is on (0-based) out of `steps`, and its words; null once the procedure is done. */
  step: number;
  steps: number;
  stepText: Text | null;
  coming: { supervisor: string; at: number } | null;
}

export type FloorMessage =
  /** First on every connection. */
  | { type: 'hello'; version: string; language: Language; supervisors: boolean; tables: string[] }
  /** The whole room: on connection, and again once the broker is back. */
  | { type: 'room'; tiles: TableTile[] }
  /** One table changed. */
  | { type: 'tile'; tile: TableTile }
  /** A table is gone from the broker (its retained messages were cleared). */
  | { type: 'gone'; table: string }
  /** The floor service's own link to the broker. */
  | { type: 'broker'; state: 'connecting' | 'connected' | 'offline' };

/** A floor session on a tablet, as the table's is (`FloorSession`). */
export interface FloorPageSession {
  supervisor: string;
  token: string;
  until: number;
}

export const FLOOR_API = {
  /** GET: every table's status and public state. */
  tables: '/api/tables',
  /** GET: the open incidents and calls across the room, most urgent first, each with its table. */
  incidents: '/api/incidents',
  /** POST `{pin}` or `{badge}`: 200 a `FloorPageSession`; 401 wrong, 423 locked, 429 busy. */
  signIn: '/api/sign-in',
  /** POST `{token}`. */
  signOut: '/api/sign-out',
  /**
   * POST `{token, table, call}`: "on my way", sent to the table as an authenticated command; 202 once the
   * broker has it (the table's state then names the supervisor), 401 once the session ended.
   */
  answer: '/api/answer',
  /** GET: the statistics per table and dealer down (JSON); `.csv` the same as CSV. */
  stats: '/api/stats',
  statsCsv: '/api/stats.csv',
} as const;
