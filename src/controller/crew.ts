import { Subject } from 'rxjs';
import { callKey, type PublicState, type TableExtras, type TableExtrasSource } from '../outputs/public.js';
import { tableExtras } from '../outputs/public-schema.js';

/** The dealer of the down: signed in at the table (badge or PIN), journaled, in the public state. */
export type DealerDown = NonNullable<TableExtras['dealer']>;
type Call = NonNullable<TableExtras['call']>;
type Device = NonNullable<TableExtras['devices']>[number];

/** The journal's `dealer` marker, as `TableCrew.signIn` wrote it; undefined for anything else. */
export function journaledDown(detail: unknown): DealerDown | undefined {
  const parsed = tableExtras.shape.dealer.safeParse(detail);
  return parsed.success ? parsed.data : undefined;
}

/**
 * Who works the table beside the machine (issue 20), and what the floor reads of it in the public state:
 * the profile, the devices' health, the dealer of the down, and the open incident or dealer's call with
 * since when it waits and which supervisor is on the way. Kept in the controller, not in the table: none
 * of it is a domain event, none of it changes a ruling.
 */
export class TableCrew implements TableExtrasSource {
  /** A sign-in, an answer, a device's health: the outputs say the state again. */
  readonly changed = new Subject<void>();
  #dealer: DealerDown | undefined;
  #call: Call | undefined;

  constructor(
    private readonly table: { profile: string; devices(): readonly Device[]; hands(): number },
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * What the state says beside the machine's. The first output to ask about a new call starts its wait:
   * the display and MQTT then give it the same `since`.
   */
  of(state: Pick<PublicState, 'hand' | 'phase' | 'incident'>): TableExtras {
    const key = callKey(state);
    if (key === null) this.#call = undefined;
    else if (this.#call?.key !== key) this.#call = { key, since: this.now() };
    return {
      profile: this.table.profile,
      devices: this.table.devices().map(({ id, kind, status }) => ({ id, kind, status })),
      ...(this.#dealer && { dealer: this.#dealer }),
      ...(this.#call && { call: this.#call }),
    };
  }

  /** A dealer signs in: their down takes the hands after those dealt so far. Journal what it returns. */
  signIn(name: string): DealerDown {
    this.#dealer = { name, since: this.now(), afterHand: this.table.hands() };
    this.changed.next();
    return this.#dealer;
  }

  /** The down the journal had when croupier stopped. */
  resume(down: DealerDown): void {
    this.#dealer = down;
  }

  /**
   * A supervisor is on the way to `call`; refused (false) when that call is no longer the open one (a
   * late answer must not look like the answer to the next call).
   */
  answer(supervisor: string, call: string): boolean {
    if (this.#call?.key !== call) return false;
    this.#call = { ...this.#call, coming: { supervisor, at: this.now() } };
    this.changed.next();
    return true;
  }

  /** A device's health changed: the floor's tile says it. */
  devicesChanged(): void {
    this.changed.next();
  }
}
