import type { FLOOR_DECISIONS } from '../domain/events.js';
import type { ChainProblem } from '../journal/chain.js';
import type { DeviceHealth } from '../outputs/health.js';
import type { PublicOutput, PublicState, TableExtras } from '../outputs/public.js';
import type { FloorSession } from '../supervisor/desk.js';

/**
 * What the dealer display and croupier say to each other. The display's page opens a WebSocket on
 * `/ws` and receives `DisplayMessage`s; the dealer's touches go back as HTTP POSTs to `/api/...`. Every
 * message is built from the public view (`src/outputs/public.ts`): no hole card's identity ever reaches it.
 */

export type Language = 'fr' | 'en';

/** A device as the display shows it: name and health, no counters. */
export type DisplayDevice = Pick<DeviceHealth, 'id' | 'kind' | 'status' | 'detail'>;

export type DisplayMessage =
  /** First message on every connection. */
  | {
      type: 'hello';
      table: string;
      version: string;
      profile: string;
      language: Language;
      seats: number;
      /** Whether any supervisor can sign in (the config lists some). */
      supervisors: boolean;
      /** Whether any dealer can sign in for a down (the config lists some): else no dealer button. */
      dealers: boolean;
    }
  /**
   * The table as it stands: sent on connection and whenever it (or a device's health) changes. `crew`:
   * the dealer of the down, and the open call's wait and the supervisor on the way to it.
   */
  | { type: 'state'; state: PublicState; devices: DisplayDevice[]; crew?: DisplayCrew }
  /** An incident or prompt just ruled: the alert opens (the procedure and its step are in `state.incident`). */
  | { type: 'output'; output: PublicOutput }
  /** A supervisor signed in with a badge at the keypad: their session, for the table's screens. */
  | { type: 'floor'; session: FloorSession }
  /**
   * The table stopped: its journal cannot record (disk full, read-only, unreadable at start) or a record
   * of it is broken (`record`: its number). `clearable`: a supervisor's clearing ends it. Once cleared, a
   * new `hello` follows (the screen starts over) and the `state`.
   */
  | { type: 'halt'; detail: string; record?: number; clearable?: boolean };

export type FloorDecision = (typeof FLOOR_DECISIONS)[number];

export type DisplayCrew = Pick<TableExtras, 'dealer' | 'call'>;

/** GET: the `state` message (public table state, open incident and procedure step, devices) as JSON. */
export const DISPLAY_STATE = '/api/state';

/** The dealer's touches, each a POST with an empty JSON body; 202 when taken. */
export const DISPLAY_ACTIONS = {
  /** The dealer confirms the current procedure step (one the sensors cannot see). */
  confirm: '/api/confirm',
  /** The dealer calls the floor (always on screen). */
  callFloor: '/api/call-floor',
  /** The dealer starts the next hand (no hand in play): the table deals it in by the rules; 409 without two players. */
  nextHand: '/api/next-hand',
  /** `{seat, status, name?}`: the dealer marks a seat between hands (in, out, absent, waiting). */
  seat: '/api/seat',
  /**
   * `{pin}`: a dealer signs in for their down; 200 `{dealer}`, or as a supervisor's sign-in is refused
   * (401 wrong, 423 locked, 429 busy).
   */
  dealerSignIn: '/api/dealer/sign-in',
} as const;

/**
 * The supervisor's side, each a POST with a JSON body. `signIn` `{pin}` answers 200 with a
 * `FloorSession`, 401 for a wrong PIN, 423 while locked out, 429 while another is being checked; the
 * others carry the session's `token` and answer 401 once it has expired.
 */
export const FLOOR_ACTIONS = {
  signIn: '/api/floor/sign-in',
  /** `{token, decision}`: the floor's decision, or a ruling overruled (`continue`), signed by the supervisor. */
  decide: '/api/floor/decision',
  signOut: '/api/floor/sign-out',
  /** `{token}`: the last hands' incidents from the journal, newest first (`RecentHand[]`). */
  recentHands: '/api/floor/recent-hands',
  /**
   * `{token}`: the supervisor clears the table's halt, signed with their name in the journal; 202 while
   * croupier clears it (the screens then start over), 409 with a `code` when the table is not halted
   * (`not-halted`), the file itself is unusable (`not-clearable`) or a clearing is under way (`busy`).
   */
  clearHalt: '/api/floor/clear-halt',
} as const;

/** A past hand as the supervisor reviews it on the display: public outputs only. */
export interface RecentHand {
  number: number;
  startedAt: number;
  outputs: PublicOutput[];
  /**
   * The broken journal record it holds (`in`) or comes after (`after`): the chain cannot vouch for the
   * hand. `clearedBy`: the supervisor whose clearing let play go on past it.
   */
  broken?: {
    record: number;
    problem: ChainProblem;
    reason: string;
    where: 'in' | 'after';
    clearedBy?: string;
  };
  /** A record of it cannot be read back: its rulings cannot be given. */
  unreadable?: string;
  /** The background check has not walked the whole chain yet since croupier started. */
  unchecked?: boolean;
}

/** A PIN as the display's keypad types it. */
export const PIN = /^[0-9]{4,12}$/;
