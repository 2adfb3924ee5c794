import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/load.js';
import { corpusDocument, corpusEvents, loadCorpus, replayedPasses } from './corpus.js';

const corpus = loadCorpus();

describe('the corpus as one night at one table', () => {
  it('holds every hand of the scenario files', () => {
    expect(corpus.hands).toBeGreaterThan(250);
    expect(corpus.items.filter((item) => 'hand.start' in item)).toHaveLength(corpus.hands);
  });

  it('plays round and round up to the hand asked for, time running on: a valid scenario', () => {
    const hands = corpus.hands + 7;
    const night = corpusDocument(corpus, hands);
    const { events } = loadScenario(night, 'night');
    expect(events.filter((event) => event.type === 'hand.start')).toHaveLength(hands);
    expect(events.every((event, i) => i === 0 || event.t >= (events[i - 1]?.t ?? 0))).toBe(true);
  });

  it('replays passes of its events numbered and timed on, one after the other', () => {
    const pass = corpusEvents(corpus);
    const twice = [...replayedPasses(pass, 2)];
    expect(twice).toHaveLength(2 * pass.length);
    expect(twice.map((event) => event.seq)).toEqual(twice.map((_, i) => i));
    const second = twice[pass.length];
    expect(second?.type).toBe(pass[0]?.type);
    expect(second?.t).toBeGreaterThan(twice[pass.length - 1]?.t ?? Number.POSITIVE_INFINITY);
  });
});
