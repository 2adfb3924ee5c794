import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FACES } from '../../../src/domain/cards.js';
import { DeckRegistry, RegistryError, scenarioUid } from '../../../src/domain/deck-registry.js';

/** 52 distinct UIDs for deck `prefix`, in FACES order. */
function uids(prefix: string): string[] {
  return FACES.map((_, i) => `${prefix}${i.toString(16).padStart(6, '0')}`.toUpperCase());
}

describe('DeckRegistry', () => {
  it('maps each scanned tag to its face and deck, in FACES order', () => {
    const registry = new DeckRegistry();
    registry.registerDeck('A', uids('0A'));
    expect(registry.lookup('0A000000')).toEqual({ uid: '0A000000', face: '2s', deck: 'A' });
    expect(registry.lookup('0A000033')).toEqual({ uid: '0A000033', face: 'Ac', deck: 'A' });
    expect(registry.uidOf('A', 'Ac')).toBe('0A000033');
  });

  it('treats a tag it does not know as a foreign card', () => {
    const registry = DeckRegistry.forScenario(['A']);
    expect(registry.lookup('04A1B2C3')).toEqual({ uid: '04A1B2C3', face: null, deck: null });
    expect(registry.copyOf('04A1B2C3')).toBeUndefined();
  });

  it('reads UIDs in either hex case', () => {
    const registry = new DeckRegistry();
    registry.registerDeck(
      'A',
      uids('0a').map((uid) => uid.toLowerCase()),
    );
    expect(registry.lookup('0a000001')).toEqual({ uid: '0A000001', face: '3s', deck: 'A' });
  });

  it('refuses a deck with the wrong number of tags', () => {
    expect(() => new DeckRegistry().registerDeck('A', uids('0A').slice(1))).toThrow(
      new RegistryError('deck A: expected 52 tag UIDs (one per face, in FACES order), got 51'),
    );
  });

  it('refuses a UID listed twice, naming both faces', () => {
    const list = uids('0A');
    list[12] = list[0] ?? '';
    expect(() => new DeckRegistry().registerDeck('A', list)).toThrow(
      new RegistryError('deck A: UID 0A000000 is listed for both 2s and As'),
    );
  });

  it('refuses a UID already registered to another card and leaves no trace of the refused deck', () => {
    const registry = new DeckRegistry();
    registry.registerDeck('A', uids('0A'));
    const list = uids('0B');
    list[51] = '0A000005';
    expect(() => registry.registerDeck('B', list)).toThrow(
      new RegistryError('UID 0A000005 is already registered to 7s of deck A'),
    );
    expect(registry.decks()).toEqual(['A']);
    expect(registry.lookup('0B000000').face).toBeNull();
  });

  it('refuses a deck registered twice, an empty deck id and a malformed UID', () => {
    const registry = DeckRegistry.forScenario(['A']);
    expect(() => registry.registerDeck('A', uids('0B'))).toThrow(
      new RegistryError('deck A is already registered'),
    );
    expect(() => registry.registerDeck('', uids('0B'))).toThrow(
      new RegistryError('a deck id must not be empty'),
    );
    const list = uids('0B');
    list[3] = '0B12';
    expect(() => registry.registerDeck('B', list)).toThrow(
      new RegistryError('"0B12" is not a tag UID (4 to 10 bytes in hex)'),
    );
  });

  it('adds further tags of a face as copies 2, 3, …', () => {
    const registry = DeckRegistry.forScenario(['A']);
    registry.addTag('A', 'Kd', '04000001');
    registry.addTag('A', 'Kd', '04000002');
    expect(registry.lookup('04000002')).toEqual({ uid: '04000002', face: 'Kd', deck: 'A' });
    expect(registry.uidOf('A', 'Kd', 2)).toBe('04000001');
    expect(registry.copyOf('04000002')).toBe(3);
    expect(registry.copyOf(registry.uidOf('A', 'Kd') ?? '')).toBe(1);
    expect(registry.uidOf('A', 'Kd', 4)).toBeUndefined();
  });

  it('refuses a further tag for an unknown deck or with a UID already in use', () => {
    const registry = DeckRegistry.forScenario(['A']);
    expect(() => registry.addTag('B', 'Kd', '04000001')).toThrow(
      new RegistryError('deck B is not registered'),
    );
    registry.addTag('A', 'Kd', '04000001');
    expect(() => registry.addTag('A', 'Qd', '04000001')).toThrow(
      new RegistryError('UID 04000001 is already registered to Kd of deck A (copy 2)'),
    );
  });

  it("reads a deck of a back already registered as a copy of that back's first deck", () => {
    const registry = new DeckRegistry();
    registry.registerDeck('A', uids('0A'), 'red');
    registry.registerDeck('B', uids('0B'), 'blue');
    registry.registerDeck('A2', uids('1A'), 'red');
    registry.registerDeck('C', uids('0C'));
    expect(registry.lookup('1A00000C')).toEqual({ uid: '1A00000C', face: 'As', deck: 'A' });
    expect(registry.lookup('0B00000C').deck).toBe('B');
    expect(registry.lookup('0C00000C').deck).toBe('C');
    expect([registry.deckOf('1A00000C'), registry.copyOf('1A00000C')]).toEqual(['A2', 1]);
    expect(['A', 'B', 'A2', 'C', 'D'].map((deck) => registry.playsAs(deck))).toEqual([
      'A',
      'B',
      'A',
      'C',
      undefined,
    ]);
    registry.addTag('A2', 'Kd', '04000001');
    expect(registry.lookup('04000001')).toEqual({ uid: '04000001', face: 'Kd', deck: 'A' });
    expect(registry.uidOf('A2', 'As')).toBe('1A00000C');
    expect(registry.decks()).toEqual(['A', 'B', 'A2', 'C']);
  });

  it('alternates two backs for plain scenario ids, and takes the back a scenario deck names', () => {
    const plain = DeckRegistry.forScenario(['A', 'B', 'C', 'D']);
    expect(['A', 'B', 'C', 'D'].map((deck) => plain.playsAs(deck))).toEqual(['A', 'B', 'A', 'B']);
    const named = DeckRegistry.forScenario([
      { id: 'R1', back: 'red' },
      { id: 'R2', back: 'red' },
      { id: 'K', back: 'black' },
    ]);
    expect(['R1', 'R2', 'K'].map((deck) => named.playsAs(deck))).toEqual(['R1', 'R1', 'K']);
    expect(named.lookup(scenarioUid('R2', 'As'))).toMatchObject({ face: 'As', deck: 'R1' });
  });

  it('lists decks in registration order', () => {
    expect(DeckRegistry.forScenario(['B', 'A']).decks()).toEqual(['B', 'A']);
    expect(new DeckRegistry().decks()).toEqual([]);
  });
});

describe('scenarioUid', () => {
  it('is stable: simulators and stored journals rely on the same UIDs', () => {
    expect(scenarioUid('A', '2s', 1)).toBe('32C70100');
    expect(scenarioUid('A', 'As')).toBe('32C7010C');
    expect(scenarioUid('A', 'As', 2)).toBe('32C7020C');
    expect(scenarioUid('B', 'As', 1)).toBe('3C8E010C');
  });

  it('gives 8 hex digits, distinct across faces and copies of any deck id', () => {
    fc.assert(
      fc.property(fc.string(), (deckId) => {
        const all = [1, 2, 255].flatMap((copy) => FACES.map((face) => scenarioUid(deckId, face, copy)));
        expect(new Set(all).size).toBe(all.length);
        for (const uid of all) expect(uid).toMatch(/^[0-9A-F]{8}$/);
      }),
    );
  });

  it('refuses a copy outside 1-255', () => {
    expect(() => scenarioUid('A', 'As', 0)).toThrow(RangeError);
    expect(() => scenarioUid('A', 'As', 256)).toThrow(RangeError);
  });

  it('is what forScenario registers', () => {
    const registry = DeckRegistry.forScenario(['A', 'B']);
    for (const deck of ['A', 'B']) {
      for (const face of FACES)
        expect(registry.lookup(scenarioUid(deck, face, 1))).toMatchObject({ face, deck });
    }
  });
});
