import { matchesSecret } from '../supervisor/credentials.js';
import { FloorDesk, type SignIn, type Supervisor } from '../supervisor/desk.js';

/** A dealer as the config lists them: a name, and a hashed PIN and/or badge UID (as a supervisor's). */
export type Dealer = Supervisor;

/**
 * The dealers who may sign in at the table for their down, on the same salted hashes as the
 * supervisors. A PIN typed on the display goes through a desk of its own, with its lockout (a PIN is not
 * guessed at the screen). A badge read at the keypad is looked for among the dealers first, and is no
 * failure when it is not one's: the controller hands it to the supervisors' desk then.
 */
export class DealerRoster {
  readonly #desk: FloorDesk;

  constructor(
    private readonly dealers: readonly Dealer[],
    now: () => number = Date.now,
  ) {
    this.#desk = new FloorDesk(dealers, { now });
  }

  /** The dealer whose PIN it is, or why not (`SignIn`'s refusals). */
  async signIn(pin: string): Promise<{ dealer: string } | Extract<SignIn, { refused: unknown }>> {
    const outcome = await this.#desk.signIn({ pin });
    if (!('signedIn' in outcome)) return outcome;
    // A down is no session: nothing is signed with it afterwards.
    this.#desk.signOut(outcome.signedIn.token);
    return { dealer: outcome.signedIn.supervisor };
  }

  /** The dealer whose badge it is, or null. Checked side by side: scrypt runs on libuv's pool. */
  async badge(uid: string): Promise<string | null> {
    const holders = await Promise.all(
      this.dealers.map(async (dealer) =>
        dealer.badge !== undefined && (await matchesSecret(uid, dealer.badge)) ? dealer.name : null,
      ),
    );
    return holders.find((name) => name !== null) ?? null;
  }
}
