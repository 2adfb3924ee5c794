import { describe, expect, it } from 'vitest';
import { DeckRegistry } from '../../../src/domain/deck-registry.js';
import { identify } from '../../../src/normaliser/identify.js';

describe('identify', () => {
  const registry = DeckRegistry.forScenario(['A', 'B']);

  it('names the card a registered tag stands for, in the zone it was read', () => {
    const uid = registry.uidOf('B', 'Qh') ?? '';
    expect(identify(registry, { uid, zone: 'seat:4' })).toEqual({
      zone: 'seat:4',
      uid,
      face: 'Qh',
      deck: 'B',
    });
  });

  it('keeps an unregistered tag as a foreign card', () => {
    expect(identify(registry, { uid: '04a1b2c3', zone: 'board' })).toEqual({
      zone: 'board',
      uid: '04A1B2C3',
      face: null,
      deck: null,
    });
  });
});
