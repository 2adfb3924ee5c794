import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/version.js';
import { type CpuProfile, topSelfFrames } from './cpu-profile.js';

const frame = (functionName: string, file = '', lineNumber = 0) => ({
  functionName,
  url: file === '' ? '' : `file://${PACKAGE_ROOT}/${file}`,
  lineNumber,
});

/** root → main → sendAll → { reduce (twice, two call sites), send }; root → (garbage collector). */
const profile: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame('(root)'), children: [2, 7] },
    { id: 2, callFrame: frame('main', 'dist/bench/machine.js', 9), children: [3] },
    { id: 3, callFrame: frame('sendAll', 'dist/bench/machine.js', 19), children: [4, 5, 6] },
    { id: 4, callFrame: frame('reduce', 'dist/src/table/reduce.js', 50) },
    { id: 5, callFrame: frame('send', 'node_modules/xstate/dist/x.js', 99), children: [8] },
    { id: 6, callFrame: frame('', 'dist/bench/machine.js', 30) },
    { id: 7, callFrame: frame('(garbage collector)') },
    { id: 8, callFrame: frame('reduce', 'dist/src/table/reduce.js', 50) },
  ],
  samples: [4, 4, 8, 5, 6, 7, 2],
  timeDeltas: [1000, 1000, 2000, 500, 250, 5000, 100],
};

describe('topSelfFrames', () => {
  it('sums self time per function over its call sites, most first, named by file and line', () => {
    const { frames, totalMs } = topSelfFrames(profile, { top: 2 });
    expect(totalMs).toBeCloseTo(9.85);
    expect(frames).toEqual([
      { frame: '(garbage collector)', selfMs: 5, share: 5 / 9.85 },
      { frame: 'reduce dist/src/table/reduce.js:51', selfMs: 4, share: 4 / 9.85 },
    ]);
  });

  it('counts only samples beneath the function in focus', () => {
    const { frames, totalMs } = topSelfFrames(profile, { top: 10, under: 'sendAll' });
    expect(totalMs).toBeCloseTo(4.75);
    expect(frames.map(({ frame: name }) => name)).toEqual([
      'reduce dist/src/table/reduce.js:51',
      'send xstate/dist/x.js:100',
      '(anonymous) dist/bench/machine.js:31',
    ]);
  });
});
