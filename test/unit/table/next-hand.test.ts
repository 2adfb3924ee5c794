import { describe, expect, it } from 'vitest';
import { PROFILES } from '../../../src/rules/index.js';
import { nextHand } from '../../../src/table/next-hand.js';
import { initialContext } from '../../../src/table/reduce.js';
import type { Hand, TableContext } from '../../../src/table/state.js';

const empty = initialContext({ seats: 6, profile: PROFILES['main-event-2014'] });
const lastHand = (hand: Partial<Hand>, decks: TableContext['decks'] = {}): TableContext => ({
  ...empty,
  decks,
  hand: { button: 3, players: [1, 3, 5, 6], deck: 'A', status: 'over', ...hand } as Hand,
});

describe('the next hand from the dealer display', () => {
  it('the first hand deals every seat, the button where the puck lies', () => {
    expect(nextHand(empty, [50, 100], ['A', 'B'])).toEqual({
      button: 1,
      players: [1, 2, 3, 4, 5, 6],
      blinds: [50, 100],
      deck: 'A',
    });
    expect(nextHand({ ...empty, puck: 4 }, [50, 100], ['A']).button).toBe(4);
  });

  it('the button moves to the next player, round the table; the other deck deals', () => {
    expect(nextHand(lastHand({}), [50, 100], ['A', 'B'])).toMatchObject({
      button: 5,
      players: [1, 3, 5, 6],
      deck: 'B',
    });
    expect(nextHand(lastHand({ button: 6 }), [50, 100], ['A', 'B']).button).toBe(1);
  });

  it('the redeal after a void hand keeps the button', () => {
    expect(nextHand(lastHand({ status: 'void' }), [50, 100], ['A', 'B']).button).toBe(3);
  });

  it('a deck the shuffler has not counted back is passed over while another is ready', () => {
    const decks = {
      A: { lastHand: 1, returned: true, fault: null },
      B: { lastHand: 2, returned: false, fault: null },
    };
    expect(nextHand(lastHand({ deck: 'A' }, decks), [50, 100], ['A', 'B']).deck).toBe('A');
  });
});
