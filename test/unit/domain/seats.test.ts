import { describe, expect, it } from 'vitest';
import {
  clockwiseAfter,
  dealOrder,
  defaultBlinds,
  postflopOrder,
  preflopOrder,
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
