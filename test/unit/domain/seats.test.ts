import { describe, expect, it } from 'vitest';
import {
  clockwiseAfter,
  dealOrder,
  defaultBlinds,
  firstPositions,
  nextPositions,
  type Positions,
  postflopOrder,
  preflopOrder,
  seatsBetween,
} from '../../../src/domain/seats.js';

describe('deal order', () => {
  it('starts with the first player after the button and goes clockwise', () => {
    expect(dealOrder(2, [1, 2, 3, 4, 5, 7, 8, 9], 4)).toEqual([3, 4, 5, 7, 8, 9, 1, 2]);
  });

  it('wraps from the last seat to seat 1', () => {
    expect(dealOrder(10, [1, 2, 3, 10], 2)).toEqual([1, 2, 3, 10]);
  });

  it('with a dead button (empty seat) starts with the next player', () => {
    expect(dealOrder(6, [1, 3, 5, 8], 1)).toEqual([8, 1, 3, 5]);
  });

  it('heads-up starts with the big blind (main-event-2014 §II.j)', () => {
    expect(dealOrder(4, [4, 7], 7)).toEqual([7, 4]);
    expect(dealOrder(7, [4, 7], 4)).toEqual([4, 7]);
    // Even with the button dead on an empty seat that the small blind does not follow.
    expect(dealOrder(2, [4, 7], 7)).toEqual([7, 4]);
  });
});

describe('blinds', () => {
  it('are the two players after the button', () => {
    expect(defaultBlinds(9, [1, 2, 3, 5, 9])).toEqual({ sb: 1, bb: 2 });
    expect(defaultBlinds(3, [1, 2, 3])).toEqual({ sb: 1, bb: 2 });
  });

  it('heads-up: the button posts the small blind', () => {
    expect(defaultBlinds(4, [4, 7])).toEqual({ sb: 4, bb: 7 });
  });
});

describe('action order', () => {
  it('preflop starts after the big blind and ends with it', () => {
    expect(preflopOrder([1, 2, 3, 10], 2)).toEqual([3, 10, 1, 2]);
  });

  it('heads-up preflop the button (small blind) acts first, postflop last', () => {
    expect(preflopOrder([4, 7], 7)).toEqual([4, 7]);
    expect(postflopOrder([4, 7], 4)).toEqual([7, 4]);
  });

  it('clockwiseAfter handles a seat not in the list', () => {
    expect(clockwiseAfter(5, [9, 2, 6])).toEqual([6, 9, 2]);
  });
});

describe('the next hand', () => {
  const last: Positions = { button: 3, sb: 5, bb: 7, sbSeat: 5 };

  it('the first hand: the button where it is, the blinds the next two players', () => {
    expect(firstPositions(9, [1, 2, 3, 5, 9])).toEqual({ button: 9, sb: 1, bb: 2, sbSeat: 1 });
    expect(firstPositions(7, [4, 7])).toEqual({ button: 7, sb: 7, bb: 4, sbSeat: 7 });
  });

  it('dead button: the big blind moves on one player, the small blind is its last seat, the button the last small blind', () => {
    expect(nextPositions('dead-button', last, [3, 5, 7, 8, 9])).toEqual({
      button: 5,
      sb: 7,
      bb: 8,
      sbSeat: 7,
    });
  });

  it('dead button: no small blind when last hand’s big blind is gone, and a dead button on an empty seat', () => {
    expect(nextPositions('dead-button', last, [3, 8, 9])).toEqual({ button: 5, sb: null, bb: 8, sbSeat: 7 });
  });

  it('moving button: the next player has the button, the next two post', () => {
    expect(nextPositions('moving-button', last, [3, 5, 7, 8, 9])).toEqual({
      button: 5,
      sb: 7,
      bb: 8,
      sbSeat: 7,
    });
    expect(nextPositions('moving-button', last, [1, 3, 4, 8])).toEqual({
      button: 4,
      sb: 8,
      bb: 1,
      sbSeat: 8,
    });
  });

  it('heads-up: the big blind moves on, the other player has the button and posts the small blind', () => {
    for (const rule of ['dead-button', 'moving-button'] as const) {
      expect(nextPositions(rule, last, [5, 7])).toEqual({ button: 7, sb: 7, bb: 5, sbSeat: 7 });
      expect(nextPositions(rule, last, [7, 9])).toEqual({ button: 7, sb: 7, bb: 9, sbSeat: 7 });
    }
  });
});

describe('seats between two seats', () => {
  it('are those strictly between, clockwise, wrapping past the last seat', () => {
    expect(seatsBetween(3, 6, 9)).toEqual([4, 5]);
    expect(seatsBetween(8, 2, 9)).toEqual([9, 1]);
    expect(seatsBetween(4, 5, 9)).toEqual([]);
  });

  it('are every other seat from a seat to itself, and stop at a seat the table does not have', () => {
    expect(seatsBetween(2, 2, 4)).toEqual([3, 4, 1]);
    expect(seatsBetween(2, 7, 4)).toEqual([3, 4, 1]);
  });
});
