import { ACTS, type Act, type DealerInputKind } from '../../src/domain/events.js';
import { MAX_SEATS } from '../../src/domain/seats.js';

/**
 * The dealer's key grammar (README.md): a seat number then an act key; after bet, raise or all-in the
 * player's total then Enter; dealer keys alone, or after a seat for the ones about a seat's card. It checks
 * the syntax only: whether the seat is in the hand or may act is the table's to judge.
 */

export const DIGITS = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'] as const;
type DigitMeaning = `digit:${(typeof DIGITS)[number]}`;

/** Dealer keys: the input each keys, and whether a seat keyed before it names the zone of the card. */
export const DEALER_KEYS = {
  'deal-done': { input: 'deal-done', seat: false },
  collect: { input: 'collect', seat: false },
  confirm: { input: 'confirm', seat: false },
  'call-floor': { input: 'call-floor', seat: false },
  'hand-end': { input: 'hand-end', seat: false },
  'burn-exposed': { input: 'burn-exposed', seat: false },
  exposed: { input: 'exposed', seat: true, by: 'dealer' },
  'exposed-by-player': { input: 'exposed', seat: true, by: 'player' },
  flashed: { input: 'flashed', seat: true },
  boxed: { input: 'boxed', seat: true },
} as const satisfies Record<string, { input: DealerInputKind; seat: boolean; by?: 'dealer' | 'player' }>;

type DealerKey = keyof typeof DEALER_KEYS;
export type KeyedInput = (typeof DEALER_KEYS)[DealerKey]['input'];

/** What a key can mean; the config's key map gives each key one. */
export type Meaning = DigitMeaning | 'enter' | 'clear' | Act | DealerKey;

export const MEANINGS: readonly Meaning[] = [
  ...DIGITS.map((digit): DigitMeaning => `digit:${digit}`),
  'enter',
  'clear',
  ...ACTS,
  ...(Object.keys(DEALER_KEYS) as DealerKey[]),
];

/** Acts followed by the player's total bet in the round, ended by Enter (which alone keys no amount). */
export const AMOUNT_ACTS: ReadonlySet<Act> = new Set(['bet', 'raise', 'allin']);

/** The largest table croupier serves. */

/** Up to 999,999,999 chips: longer is a stuck or mistyped key. */
const MAX_DIGITS = 9;

export type KeypadEntry =
  | { kind: 'action'; seat: number; act: Act; amount?: number }
  | { kind: 'dealer'; input: KeyedInput; seat?: number; by?: 'dealer' | 'player' };

export type EntryOutcome = { entry: KeypadEntry } | { rejected: string };

const isAct = (meaning: Meaning): meaning is Act => (ACTS as readonly string[]).includes(meaning);

/** The grammar's state between keys: the digits keyed, and the act waiting for its amount. */
export class KeyEntry {
  readonly #timeoutMs: number;
  #digits = '';
  #awaiting: { seat: number; act: Act } | null = null;
  #lastAt: number | null = null;

  /** An entry left unfinished longer than `timeoutMs` is dropped at the next key. */
  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
  }

  /** The entries a key completes and the entries it rejects, with why. `t` is when it was pressed. */
  press(meaning: Meaning, t: number): EntryOutcome[] {
    const out: EntryOutcome[] = [];
    if (this.#lastAt !== null && t - this.#lastAt > this.#timeoutMs && this.#pending()) {
      this.#drop(out, `no key for over ${this.#timeoutMs} ms`);
    }
    this.#lastAt = t;
    if (meaning.startsWith('digit:')) this.#digit(meaning.slice('digit:'.length), out);
    else if (meaning === 'clear') this.#reset();
    else if (meaning === 'enter') this.#enter(out);
    else if (isAct(meaning)) this.#act(meaning, out);
    else this.#dealer(meaning as DealerKey, out);
    return out;
  }

  #digit(digit: string, out: EntryOutcome[]): void {
    if (this.#digits.length === MAX_DIGITS) this.#drop(out, `more than ${MAX_DIGITS} digits`);
    else this.#digits += digit;
  }

  #act(act: Act, out: EntryOutcome[]): void {
    if (this.#awaiting) this.#drop(out, 'Enter ends the amount');
    const seat = this.#seat(act, out);
    if (seat === null) return;
    if (AMOUNT_ACTS.has(act)) this.#awaiting = { seat, act };
    else out.push({ entry: { kind: 'action', seat, act } });
  }

  #enter(out: EntryOutcome[]): void {
    const awaiting = this.#awaiting;
    if (!awaiting) {
      const keyed = this.#pending() ? `Enter after ${this.#pending()}` : 'Enter with nothing keyed';
      out.push({ rejected: `${keyed}: Enter ends the amount of a bet, raise or all-in` });
      this.#reset();
      return;
    }
    const digits = this.#digits;
    this.#reset();
    const { seat, act } = awaiting;
    if (digits !== '' && Number(digits) === 0) {
      out.push({ rejected: `seat ${seat} ${act} to 0: key the player's total, or Enter alone for none` });
      return;
    }
    out.push({ entry: { kind: 'action', seat, act, ...(digits === '' ? {} : { amount: Number(digits) }) } });
  }

  #dealer(key: DealerKey, out: EntryOutcome[]): void {
    const { input, seat: aboutSeat, ...by } = DEALER_KEYS[key];
    if (this.#awaiting) this.#drop(out, `${key} was pressed before Enter`);
    let seat: number | null = null;
    if (aboutSeat && this.#digits !== '') {
      seat = this.#seat(key, out);
      if (seat === null) return;
    } else if (this.#digits !== '') {
      // Still keyed: a stray digit must not hold back a call for the floor.
      this.#drop(out, `${key} takes no seat`);
    }
    out.push({ entry: { kind: 'dealer', input, ...(seat === null ? {} : { seat }), ...by } });
  }

  /** The seat keyed before `key`, or null (rejected) when there is none or it is no seat. */
  #seat(key: string, out: EntryOutcome[]): number | null {
    const digits = this.#digits;
    this.#digits = '';
    if (digits === '') {
      out.push({ rejected: `${key} needs a seat: key the seat number, then ${key}` });
      return null;
    }
    const seat = Number(digits);
    if (seat < 1 || seat > MAX_SEATS) {
      out.push({ rejected: `${key} after ${digits}: a seat is 1 to ${MAX_SEATS}` });
      return null;
    }
    return seat;
  }

  /** What is keyed so far, in words, or '' when nothing is. */
  #pending(): string {
    const awaiting = this.#awaiting;
    if (awaiting) return `seat ${awaiting.seat} ${awaiting.act}${this.#digits ? ` ${this.#digits}` : ''}`;
    return this.#digits;
  }

  #drop(out: EntryOutcome[], why: string): void {
    out.push({ rejected: `${this.#pending()} dropped: ${why}` });
    this.#reset();
  }

  #reset(): void {
    this.#digits = '';
    this.#awaiting = null;
  }
}
