import { describe, expect, it } from 'vitest';
import { percentile, rounded, sums } from './stats.js';

describe('stats', () => {
  it('takes percentiles by nearest rank, whatever the order of the values', () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile([3], 99)).toBe(3);
    expect(percentile([], 50)).toBeNaN();
  });

  it('sums series sample by sample, as long as the shortest', () => {
    expect(sums([1, 2, 3], [10, 20], [100, 200, 300])).toEqual([111, 222]);
  });

  it('keeps three significant digits', () => {
    expect(rounded(23_456.7)).toBe(23_500);
    expect(rounded(0.123456)).toBe(0.123);
  });
});
