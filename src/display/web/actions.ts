import { DISPLAY_ACTIONS } from '../protocol.js';

export type DisplayAction = keyof typeof DISPLAY_ACTIONS;

/** A POST to croupier: its status and JSON answer, or null when it did not get through. */
export async function post(
  path: string,
  body: object = {},
): Promise<{ status: number; answer: unknown } | null> {
  try {
    const response = await fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer: unknown = response.status === 204 ? null : await response.json().catch(() => null);
    return { status: response.status, answer };
  } catch {
    return null;
  }
}

/** Sends one dealer touch to croupier; true when it was taken (the new state follows on the socket). */
export async function send(action: DisplayAction): Promise<boolean> {
  const response = await post(DISPLAY_ACTIONS[action]);
  return response !== null && response.status < 300;
}
