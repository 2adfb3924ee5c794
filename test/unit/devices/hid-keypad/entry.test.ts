import { describe, expect, it } from 'vitest';
import { type EntryOutcome, KeyEntry, type Meaning } from '../../../../devices/hid-keypad/entry.js';

/** Keys `keys` (space-separated meanings; digits may be run together) 100 ms apart from `start`. */
function key(entry: KeyEntry, keys: string, start = 0): EntryOutcome[] {
  const meanings = keys
    .split(' ')
    .flatMap((word): Meaning[] =>
      /^\d+$/.test(word) ? [...word].map((d) => `digit:${d}` as Meaning) : [word as Meaning],
    );
  return meanings.flatMap((meaning, i) => entry.press(meaning, start + i * 100));
}

const run = (keys: string) => key(new KeyEntry(10_000), keys);

describe('the keypad grammar', () => {
  it('keys fold, check and call as the seat then the act', () => {
    expect(run('3 fold 10 check 7 call')).toEqual([
      { entry: { kind: 'action', seat: 3, act: 'fold' } },
      { entry: { kind: 'action', seat: 10, act: 'check' } },
      { entry: { kind: 'action', seat: 7, act: 'call' } },
    ]);
  });

  it('keys bet, raise and all-in with the player’s total, ended by Enter, which alone keys none', () => {
    expect(run('5 raise 300 enter 6 bet 1200 enter 2 allin 4500 enter 9 raise enter')).toEqual([
      { entry: { kind: 'action', seat: 5, act: 'raise', amount: 300 } },
      { entry: { kind: 'action', seat: 6, act: 'bet', amount: 1200 } },
      { entry: { kind: 'action', seat: 2, act: 'allin', amount: 4500 } },
      { entry: { kind: 'action', seat: 9, act: 'raise' } },
    ]);
  });

  it('keys dealer inputs alone, and the ones about a card after an optional seat', () => {
    expect(run('call-floor deal-done confirm hand-end collect burn-exposed')).toEqual(
      ['call-floor', 'deal-done', 'confirm', 'hand-end', 'collect', 'burn-exposed'].map((input) => ({
        entry: { kind: 'dealer', input },
      })),
    );
    expect(run('2 exposed 4 exposed-by-player 6 flashed 8 boxed boxed')).toEqual([
      { entry: { kind: 'dealer', input: 'exposed', seat: 2, by: 'dealer' } },
      { entry: { kind: 'dealer', input: 'exposed', seat: 4, by: 'player' } },
      { entry: { kind: 'dealer', input: 'flashed', seat: 6 } },
      { entry: { kind: 'dealer', input: 'boxed', seat: 8 } },
      { entry: { kind: 'dealer', input: 'boxed' } },
    ]);
  });

  it('clears what is keyed', () => {
    expect(run('4 clear 5 fold 6 raise 20 clear 6 raise 40 enter')).toEqual([
      { entry: { kind: 'action', seat: 5, act: 'fold' } },
      { entry: { kind: 'action', seat: 6, act: 'raise', amount: 40 } },
    ]);
  });

  it('refuses an act without a seat, or after a number that is no seat', () => {
    expect(run('fold 0 check 11 call 4 fold')).toEqual([
      { rejected: 'fold needs a seat: key the seat number, then fold' },
      { rejected: 'check after 0: a seat is 1 to 10' },
      { rejected: 'call after 11: a seat is 1 to 10' },
      { entry: { kind: 'action', seat: 4, act: 'fold' } },
    ]);
  });

  it('drops an amount not ended by Enter when another key comes', () => {
    // The seat meant for the next act runs on into the amount.
    expect(run('3 raise 200 4 fold')).toEqual([
      { rejected: 'seat 3 raise 2004 dropped: Enter ends the amount' },
      { rejected: 'fold needs a seat: key the seat number, then fold' },
    ]);
    expect(run('3 bet 50 call-floor')).toEqual([
      { rejected: 'seat 3 bet 50 dropped: call-floor was pressed before Enter' },
      { entry: { kind: 'dealer', input: 'call-floor' } },
    ]);
  });

  it('refuses Enter with no act waiting, and an amount of 0', () => {
    expect(run('enter 7 enter 3 raise 0 enter')).toEqual([
      { rejected: 'Enter with nothing keyed: Enter ends the amount of a bet, raise or all-in' },
      { rejected: 'Enter after 7: Enter ends the amount of a bet, raise or all-in' },
      { rejected: "seat 3 raise to 0: key the player's total, or Enter alone for none" },
    ]);
  });

  it('still keys a dealer input after stray digits, which it reports dropped', () => {
    expect(run('12 call-floor 0 exposed')).toEqual([
      { rejected: '12 dropped: call-floor takes no seat' },
      { entry: { kind: 'dealer', input: 'call-floor' } },
      { rejected: 'exposed after 0: a seat is 1 to 10' },
    ]);
  });

  it('drops an entry left unfinished past the timeout, at the next key', () => {
    const entry = new KeyEntry(10_000);
    expect(key(entry, '3 raise 20')).toEqual([]);
    expect(key(entry, '5 fold', 30_000)).toEqual([
      { rejected: 'seat 3 raise 20 dropped: no key for over 10000 ms' },
      { entry: { kind: 'action', seat: 5, act: 'fold' } },
    ]);
    // Nothing pending: a long pause is no error.
    expect(key(entry, '6 check', 90_000)).toEqual([{ entry: { kind: 'action', seat: 6, act: 'check' } }]);
  });

  it('refuses more than nine digits', () => {
    expect(run('4 raise 1234567890 enter')).toEqual([
      { rejected: 'seat 4 raise 123456789 dropped: more than 9 digits' },
      { rejected: 'Enter with nothing keyed: Enter ends the amount of a bet, raise or all-in' },
    ]);
  });
});
