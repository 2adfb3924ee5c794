import { randomBytes } from 'node:crypto';
import { matchesSecret } from './credentials.js';

/** A supervisor as the config lists them: a name for the record, and a hashed PIN and/or badge UID. */
export interface Supervisor {
  name: string;
  pin?: string;
  badge?: string;
}

export type Credential = { pin: string } | { badge: string };

/** A supervisor signed in at the table: floor-only actions carry the token until `until`. */
export interface FloorSession {
  supervisor: string;
  token: string;
  until: number;
}

export type SignIn =
  | { signedIn: FloorSession }
  /** `wrong`: no supervisor has it; `locked`: too many wrong ones, nothing is checked until `until`; `busy`: one is being checked. */
  | { refused: 'wrong' | 'locked' | 'busy'; until?: number };

export interface DeskOptions {
  now(): number;
  sessionMs?: number;
  /** Wrong credentials in a row before the desk locks. */
  maxFailures?: number;
  lockoutMs?: number;
}

export interface DeskCounters {
  signedIn: number;
  wrong: number;
  lockouts: number;
}

/**
 * The table's floor desk: checks a supervisor's PIN or badge against the config's hashes and opens a
 * short session for floor-only actions. One check at a time and a lockout after repeated failures keep
 * a PIN from being guessed at the screen; a lock refuses even the right PIN until it ends (fail closed).
 */
export class FloorDesk {
  readonly #sessions = new Map<string, FloorSession>();
  readonly #counters: DeskCounters = { signedIn: 0, wrong: 0, lockouts: 0 };
  #failures = 0;
  #lockedUntil = 0;
  #checking = false;

  constructor(
    private readonly supervisors: readonly Supervisor[],
    private readonly options: DeskOptions,
  ) {}

  async signIn(credential: Credential): Promise<SignIn> {
    const now = this.options.now();
    if (now < this.#lockedUntil) return { refused: 'locked', until: this.#lockedUntil };
    if (this.#checking) return { refused: 'busy' };
    this.#checking = true;
    try {
      const supervisor = await this.#holder(credential);
      if (supervisor) return { signedIn: this.#open(supervisor.name) };
      return this.#wrong();
    } finally {
      this.#checking = false;
    }
  }

  /** The supervisor a live session's token belongs to, or null. */
  who(token: string): string | null {
    const session = this.#sessions.get(token);
    if (!session) return null;
    if (session.until > this.options.now()) return session.supervisor;
    this.#sessions.delete(token);
    return null;
  }

  signOut(token: string): void {
    this.#sessions.delete(token);
  }

  counters(): DeskCounters {
    return { ...this.#counters };
  }

  async #holder(credential: Credential): Promise<Supervisor | undefined> {
    const [field, secret] =
      'pin' in credential ? (['pin', credential.pin] as const) : (['badge', credential.badge] as const);
    for (const supervisor of this.supervisors) {
      const hashed = supervisor[field];
      if (hashed !== undefined && (await matchesSecret(secret, hashed))) return supervisor;
    }
    return undefined;
  }

  #open(supervisor: string): FloorSession {
    this.#failures = 0;
    this.#counters.signedIn += 1;
    const session = {
      supervisor,
      token: randomBytes(24).toString('base64url'),
      until: this.options.now() + (this.options.sessionMs ?? 120_000),
    };
    this.#sessions.set(session.token, session);
    return session;
  }

  #wrong(): SignIn {
    this.#counters.wrong += 1;
    this.#failures += 1;
    if (this.#failures < (this.options.maxFailures ?? 5)) return { refused: 'wrong' };
    this.#failures = 0;
    this.#counters.lockouts += 1;
    this.#lockedUntil = this.options.now() + (this.options.lockoutMs ?? 300_000);
    return { refused: 'locked', until: this.#lockedUntil };
  }
}
