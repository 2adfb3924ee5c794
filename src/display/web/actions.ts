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

/** What became of a dealer touch: taken, refused with croupier's reason, or lost on the way (`error` null). */
export type Touch = { taken: true } | { taken: false; error: string | null; code?: string };

/** Sends one dealer touch to croupier (the new state follows on the socket when it is taken). */
export async function send(action: DisplayAction, body: object = {}): Promise<Touch> {
  const response = await post(DISPLAY_ACTIONS[action], body);
  if (response === null) return { taken: false, error: null };
  if (response.status < 300) return { taken: true };
  const answer = response.answer as { error?: unknown; code?: unknown } | null;
  const error = typeof answer?.error === 'string' ? answer.error : `HTTP ${response.status}`;
  return typeof answer?.code === 'string'
    ? { taken: false, error, code: answer.code }
    : { taken: false, error };
}
