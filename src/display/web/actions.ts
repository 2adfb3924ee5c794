import { DISPLAY_ACTIONS } from '../protocol.js';

export type DisplayAction = keyof typeof DISPLAY_ACTIONS;

/** Sends one dealer touch to croupier; true when it was taken (the new state follows on the socket). */
export async function send(action: DisplayAction): Promise<boolean> {
  try {
    const response = await fetch(DISPLAY_ACTIONS[action], {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    return response.ok;
  } catch {
    return false;
  }
}
