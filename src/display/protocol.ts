import type { DeviceHealth } from '../controller/health.js';
import type { PublicOutput, PublicState } from '../outputs/public.js';

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
  | { type: 'hello'; table: string; version: string; profile: string; language: Language }
  /** The table as it stands: sent on connection and whenever it (or a device's health) changes. */
  | { type: 'state'; state: PublicState; devices: DisplayDevice[] }
  /** An incident or prompt just ruled: the alert opens (the procedure and its step are in `state.incident`). */
  | { type: 'output'; output: PublicOutput };

/** The dealer's touches, each a POST with an empty JSON body; 202 when taken. */
export const DISPLAY_ACTIONS = {
  /** The dealer confirms the current procedure step (one the sensors cannot see). */
  confirm: '/api/confirm',
  /** The dealer calls the floor (always on screen). */
  callFloor: '/api/call-floor',
} as const;
