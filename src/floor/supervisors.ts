import { randomUUID } from 'node:crypto';
import { topicOf } from '../mqtt/topics.js';
import { type Credential, FloorDesk, type SignIn, type Supervisor } from '../supervisor/desk.js';

/** An "on my way" as the table takes it: `command/on-my-way`, signed with the supervisor's PIN or badge. */
export interface OnMyWay {
  topic: string;
  payload: string;
}

/**
 * The supervisors signed in on the floor's tablets, checked against the same salted hashes as at the
 * tables (the same `supervisors` in the config), with the desk's lockout. A table checks every command
 * itself, so an answer carries the supervisor's credential: it is kept in memory for the session's life
 * only, never written or logged, and forgotten at sign-out or expiry.
 */
export class FloorSupervisors {
  readonly #desk: FloorDesk;
  readonly #credentials = new Map<string, Credential>();

  constructor(supervisors: readonly Supervisor[], options: { now(): number; sessionMs: number }) {
    this.#desk = new FloorDesk(supervisors, options);
  }

  async signIn(credential: Credential): Promise<SignIn> {
    const outcome = await this.#desk.signIn(credential);
    if ('signedIn' in outcome) this.#credentials.set(outcome.signedIn.token, credential);
    return outcome;
  }

  who(token: string): string | null {
    const supervisor = this.#desk.who(token);
    if (supervisor === null) this.#credentials.delete(token);
    return supervisor;
  }

  signOut(token: string): void {
    this.#desk.signOut(token);
    this.#credentials.delete(token);
  }

  /** The command that tells `table` the session's supervisor is on the way to `call`; null once it ended. */
  onMyWay(token: string, table: string, call: string): OnMyWay | null {
    const credential = this.#credentials.get(token);
    if (this.who(token) === null || !credential) return null;
    return {
      topic: topicOf(table, 'command', { name: 'on-my-way' }),
      payload: JSON.stringify({ id: randomUUID(), ...credential, value: call }),
    };
  }
}
