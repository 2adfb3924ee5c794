import { type KeyPress, keyName } from './boot-keyboard.js';

/**
 * A badge reader is a keyboard that types the badge's UID in hex, then Enter, within a few milliseconds.
 * The UID is a credential: no reason given here ever contains any of its characters.
 */

const MIN_CHARS = 4;
const MAX_CHARS = 64;
const HEX_KEY = /^(?:Digit|Numpad|Key)([0-9A-F])$/;
const ENTER_KEYS = new Set(['Enter', 'NumpadEnter']);

export type BadgeOutcome = { uid: string } | { rejected: string };

export class BadgeTyping {
  readonly #gapMs: number;
  #typed = '';
  #lastAt = 0;

  /** A read with a pause over `gapMs` between two keys is dropped: the reader types without pausing. */
  constructor(gapMs: number) {
    this.#gapMs = gapMs;
  }

  /** The badge an Enter completes and the reads refused; nothing while one is being typed. */
  press(press: KeyPress, t: number): BadgeOutcome[] {
    const out: BadgeOutcome[] = [];
    if (this.#typed !== '' && t - this.#lastAt > this.#gapMs) {
      // The key that came late starts a new read.
      out.push(this.#refuse(`no Enter within ${this.#gapMs} ms`));
    }
    this.#lastAt = t;
    const key = keyName(press);
    if (ENTER_KEYS.has(key)) {
      out.push(this.#end());
      return out;
    }
    const char = HEX_KEY.exec(key)?.[1];
    if (char === undefined) out.push(this.#refuse(`the badge reader typed ${key}`));
    else if (this.#typed.length === MAX_CHARS) out.push(this.#refuse(`longer than ${MAX_CHARS} characters`));
    else this.#typed += char;
    return out;
  }

  #end(): BadgeOutcome {
    const uid = this.#typed;
    this.#typed = '';
    if (uid.length < MIN_CHARS) return { rejected: `badge read too short: ${uid.length} characters` };
    return { uid };
  }

  #refuse(why: string): BadgeOutcome {
    this.#typed = '';
    return { rejected: `badge read dropped: ${why}` };
  }
}
