import { describe, expect, it } from 'vitest';
import { FACES } from '../../../src/domain/cards.js';
import {
  DeckRegistry,
  RegistryError,
  scenarioJokerUid,
  scenarioUid,
} from '../../../src/domain/deck-registry.js';
import { CardNotation } from '../../../src/scenario/notation.js';

/** tda-2024 #35-A-6 tells a non-standard card (a joker) from an unknown tag: the registry marks jokers. */
describe('the deck registry’s non-standard cards', () => {
  it('reads a joker as its deck’s card with no face; an unregistered tag has neither', () => {
    const registry = DeckRegistry.forScenario(['A', 'B']);
    registry.addJoker('B', '04AABBCC');
    expect(registry.lookup('04aabbcc')).toEqual({ uid: '04AABBCC', face: null, deck: 'B' });
    expect(registry.isNonStandard('04AABBCC')).toBe(true);
    expect(registry.lookup('04DDEEFF')).toEqual({ uid: '04DDEEFF', face: null, deck: null });
    expect(registry.isNonStandard('04DDEEFF')).toBe(false);
    expect(registry.isNonStandard(scenarioUid('A', 'As'))).toBe(false);
  });

  it('numbers a deck’s jokers and refuses a tag already registered', () => {
    const registry = DeckRegistry.forScenario(['A']);
    registry.addJoker('A', '04000001');
    registry.addJoker('A', '04000002');
    expect(registry.uidOf('A', null, 2)).toBe('04000002');
    expect(registry.copyOf('04000002')).toBe(2);
    expect(() => registry.addJoker('A', '04000001')).toThrow(
      new RegistryError('UID 04000001 is already registered to joker of deck A'),
    );
    expect(() => registry.addJoker('Z', '04000003')).toThrow(new RegistryError('deck Z is not registered'));
  });

  it('gives jokers scenario tags no face’s tag has', () => {
    const faces = new Set(FACES.flatMap((face) => [scenarioUid('A', face), scenarioUid('A', face, 2)]));
    expect(faces.has(scenarioJokerUid('A'))).toBe(false);
    expect(scenarioJokerUid('A', 2)).not.toBe(scenarioJokerUid('A'));
  });
});

describe('the scenario notation of jokers', () => {
  it('writes `joker`, `B:joker` and `joker#2`, registering each on first use', () => {
    const registry = DeckRegistry.forScenario(['A', 'B']);
    const notation = new CardNotation(registry);
    for (const code of ['joker', 'B:joker', 'joker#2']) {
      const resolved = notation.uidOf(code);
      if (!('uid' in resolved)) throw new Error(resolved.error);
      expect(registry.isNonStandard(resolved.uid)).toBe(true);
      expect(notation.codeOf(registry.lookup(resolved.uid))).toBe(code);
    }
    expect(notation.uidOf('C:joker')).toEqual({ error: '"C:joker": deck "C" is not in decks (A, B)' });
  });

  it('keeps `?:UID` for unregistered tags only', () => {
    const registry = DeckRegistry.forScenario(['A']);
    const notation = new CardNotation(registry);
    const joker = notation.uidOf('joker');
    if (!('uid' in joker)) throw new Error(joker.error);
    expect(notation.uidOf(`?:${joker.uid}`)).toEqual({
      error: `"?:${joker.uid}" is the tag of joker, not an unregistered one`,
    });
  });
});
