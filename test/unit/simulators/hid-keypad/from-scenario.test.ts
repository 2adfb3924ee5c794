import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KeyEntry, type KeypadEntry } from '../../../../devices/hid-keypad/entry.js';
import { HID_KEYPAD_KEYS } from '../../../../devices/hid-keypad/manifest.js';
import {
  entryOf,
  keysOf,
  keystrokesOf,
  playKeypadScenario,
} from '../../../../simulators/hid-keypad/from-scenario.js';
import { ManualScheduler } from '../../../../simulators/rfid-reader/scheduler.js';
import type { DomainEvent } from '../../../../src/domain/events.js';
import { parseScenarioText } from '../../../../src/scenario/load.js';

const HAND = parseScenarioText(
  `
name: a hand keyed on the keypad
profile: tda-2007
table: { seats: 6 }
decks: [A]
events:
  - { t: 0, hand.start: { button: 6, players: [1, 2, 3, 6], blinds: [50, 100], deck: A } }
  - { t: 100, card: { zone: "seat:1", card: As } }
  - { t: 400, dealer: { input: exposed, zone: "seat:1", by: dealer } }
  - { t: 800, action: { seat: 3, act: raise, amount: 300 } }
  - { t: 700, action: { seat: 6, act: call, amount: 300 } }
  - { t: 1200, dealer: { input: boxed, card: Kd } }
  - { t: 1500, dealer: { input: floor-decision, value: continue } }
  - { t: 2000, dealer: { input: hand-end } }
`,
  'hand.yaml',
);

const ROOT = join(import.meta.dirname, '../../../..');
const corpus = [join(ROOT, 'test/scenarios'), join(ROOT, '../shared/scenarios')].flatMap((folder) =>
  readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((name) => ['.yaml', '.json'].includes(extname(name)))
    .map((name) => join(folder, name)),
);

/** The entries the grammar gives for `keys` pressed under the default key map. */
function keyBack(keys: readonly string[]): KeypadEntry[] {
  const entry = new KeyEntry(10_000);
  return keys.flatMap((key) => {
    const meaning = HID_KEYPAD_KEYS[key];
    if (meaning === undefined) throw new Error(`${key} is not in the default key map`);
    return entry.press(meaning, 0).map((outcome) => {
      if ('rejected' in outcome) throw new Error(outcome.rejected);
      return outcome.entry;
    });
  });
}

describe('scenario → simulated keypad', () => {
  it('keys actions and dealer inputs with the grammar’s keys, and says why it cannot key the others', () => {
    const { strokes, skipped } = keystrokesOf(HAND.events, HID_KEYPAD_KEYS);
    expect(strokes).toEqual([
      { t: 400, seq: 2, keys: ['Numpad1', 'F17'] },
      { t: 800, seq: 3, keys: ['Numpad3', 'NumpadAdd', 'Numpad3', 'Numpad0', 'Numpad0', 'NumpadEnter'] },
      { t: 700, seq: 4, keys: ['Numpad6', 'NumpadSubtract'] },
      { t: 2000, seq: 7, keys: ['F16'] },
    ]);
    expect(skipped).toEqual([
      { seq: 5, reason: 'boxed names a card, which the keypad cannot key' },
      { seq: 6, reason: 'a floor decision is the supervisor’s, not keyed on the keypad' },
    ]);
  });

  it('keys a seat’s zone only, and an exposed card by a player with its own key', () => {
    const dealer = (fields: object) => entryOf({ type: 'dealer', t: 0, seq: 0, ...fields } as DomainEvent);
    expect(dealer({ input: 'flashed', zone: 'board' })).toBe('the keypad cannot key flashed at board');
    expect(dealer({ input: 'call-floor', zone: 'seat:2' })).toBe(
      'the keypad cannot key call-floor at seat:2',
    );
    const byPlayer = dealer({ input: 'exposed', zone: 'seat:2', by: 'player' });
    expect(byPlayer).toEqual({ kind: 'dealer', input: 'exposed', seat: 2, by: 'player' });
    expect(keysOf(byPlayer as KeypadEntry, HID_KEYPAD_KEYS)).toEqual(['Numpad2', 'F18']);
    expect(() => keysOf(byPlayer as KeypadEntry, { Numpad2: 'digit:2' })).toThrow(
      'the key map has no key for exposed-by-player',
    );
  });

  it('keys every keypad event of the corpus with keys that the grammar reads back as the same entry', () => {
    let keyed = 0;
    for (const file of corpus) {
      const { events } = parseScenarioText(readFileSync(file, 'utf8'), file);
      for (const event of events) {
        const entry = entryOf(event);
        if (entry === null || typeof entry === 'string') continue;
        expect(keyBack(keysOf(entry, HID_KEYPAD_KEYS)), `${file} event ${event.seq}`).toEqual([entry]);
        keyed++;
      }
    }
    expect(keyed).toBeGreaterThan(1000);
  });

  it('presses each entry’s keys at its time, an earlier one right after the one before', async () => {
    const scheduler = new ManualScheduler();
    const pressed: string[] = [];
    const keypad = { press: (...keys: string[]) => pressed.push(`${scheduler.now()}: ${keys.join(' ')}`) };
    const playback = playKeypadScenario(keypad, HAND.events, { keys: HID_KEYPAD_KEYS, scheduler, speed: 2 });
    scheduler.advance(300);
    expect(pressed).toEqual(['200: Numpad1 F17']);
    scheduler.advance(10_000);
    await playback.done;
    expect(pressed).toEqual([
      '200: Numpad1 F17',
      '400: Numpad3 NumpadAdd Numpad3 Numpad0 Numpad0 NumpadEnter',
      '400: Numpad6 NumpadSubtract',
      '1000: F16',
    ]);
    expect(playback.skipped.map((skip) => skip.seq)).toEqual([5, 6]);
  });

  it('stops keying when told', () => {
    const scheduler = new ManualScheduler();
    const pressed: (readonly string[])[] = [];
    const playback = playKeypadScenario({ press: (...keys) => pressed.push(keys) }, HAND.events, {
      keys: HID_KEYPAD_KEYS,
      scheduler,
    });
    scheduler.advance(500);
    playback.stop();
    scheduler.advance(10_000);
    expect(pressed).toHaveLength(1);
    expect(() => playKeypadScenario({ press: () => undefined }, [], { keys: {}, speed: 0 })).toThrow(
      'speed 0 is not positive',
    );
  });
});
