import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DomainEvent } from '../../../src/domain/events.js';
import { publicOutput } from '../../../src/outputs/public.js';
import type { TableOutput } from '../../../src/rules/types.js';
import { checkOutputs } from '../../../src/scenario/check.js';
import { parseScenarioText, type Scenario } from '../../../src/scenario/load.js';
import { replayWithProgress } from '../../../src/scenario/progress.js';
import { replayEvents } from '../../../src/table/table.js';

const DIR = join(import.meta.dirname, '../../scenarios/showdown');

function scenario(file: string): Scenario {
  const path = join(DIR, file);
  return parseScenarioText(readFileSync(path, 'utf8'), path);
}

/** The hole cards of the seats that never tabled their hand (`dealer: shown`): faces and tag uids. */
function untabledHoleCards(events: readonly DomainEvent[]): string[] {
  const tabled = new Set(
    events.flatMap((e) => (e.type === 'dealer' && e.input === 'shown' && e.zone ? [e.zone] : [])),
  );
  return events.flatMap((e) =>
    e.type === 'card.seen' && e.zone.startsWith('seat:') && !tabled.has(e.zone)
      ? [e.uid, ...(e.face ? [e.face] : [])]
      : [],
  );
}

const SHOWDOWN_OUTPUTS = (o: TableOutput) =>
  o.kind === 'award' ||
  (o.kind === 'prompt' && (o.prompt === 'SHOW_ORDER' || o.prompt === 'SHOWDOWN_RANKING'));

describe('the showdown keeps hole cards secret', () => {
  for (const file of [
    'split-odd-chip.yaml',
    'showdown-ranking.yaml',
    'fold-win.yaml',
    'single-winner.yaml',
  ]) {
    it(`names no untabled card in the public award, SHOW_ORDER and SHOWDOWN_RANKING lines (${file})`, () => {
      const s = scenario(file);
      const secret = untabledHoleCards(s.events);
      const shown = replayEvents(s.config, s.events).filter(SHOWDOWN_OUTPUTS);
      expect(shown.length).toBeGreaterThan(0);
      for (const output of shown) {
        const line = JSON.stringify(publicOutput(output));
        expect(secret.filter((card) => line.includes(`"${card}"`))).toEqual([]);
      }
    });
  }

  it('never names a hand mucked unshown, even one that ties the winners', () => {
    const s = scenario('split-odd-chip.yaml');
    const [award] = replayEvents(s.config, s.events).filter((o) => o.kind === 'award');
    expect(award).toMatchObject({ winners: [2, 5], hands: { 2: 'STRAIGHT', 5: 'STRAIGHT' } });
    expect(award?.kind === 'award' && Object.keys(award.hands)).toEqual(['2', '5']);
  });

  it('gives the pot won by a fold unseen: no hand named', () => {
    const s = scenario('fold-win.yaml');
    const awards = replayEvents(s.config, s.events).filter((o) => o.kind === 'award');
    expect(awards).toMatchObject([{ pot: 0, winners: [3], amount: 250, hands: {} }]);
  });
});

describe('the show order', () => {
  it('after a board run out with nobody able to bet, starts from the last raise of the last round bet', () => {
    const { config, events } = scenario('show-order-after-a-run-out.yaml');
    const order = replayEvents(config, events).find((o) => o.kind === 'prompt' && o.prompt === 'SHOW_ORDER');
    expect(order?.seats).toEqual([5, 2]);
  });
});

describe('an all-in that may have raised a bet keyed without its amount', () => {
  const prompts = (file: string) => {
    const { config, events } = scenario(file);
    return replayEvents(config, events).flatMap((o) =>
      o.kind === 'prompt' && o.prompt !== 'NEXT_HAND' ? [o] : [],
    );
  };

  it('gives no showdown prompt while the bettor may still act; his fold wins the hand for the all-in', () => {
    // --check ignores prompts a file does not expect: their absence is checked here.
    expect(prompts('river-allin-over-unkeyed-bet-then-fold.yaml')).toEqual([]);
  });

  it('gives the show order once the bettor called it', () => {
    const order = prompts('allin-over-unkeyed-bet-called.yaml').filter((o) => o.prompt === 'SHOW_ORDER');
    expect(order.map((o) => [o.at, o.seats])).toEqual([[25, [1, 2, 3]]]);
  });
});

describe('--check on awards', () => {
  const s = scenario('three-level-side-pots.yaml');
  const replayed = replayWithProgress(s.config, s.events);

  it('matches the file as it is', () => {
    expect(checkOutputs(s.expect, replayed, s.codeOf)).toEqual([]);
  });

  it('matches awards in their own order, apart from the incidents', () => {
    const awards = s.expect.filter((item) => item.kind === 'award');
    const others = s.expect.filter((item) => item.kind !== 'award');
    expect(checkOutputs([...awards, ...others], replayed, s.codeOf)).toEqual([]);
  });

  it('fails on a wrong share, and on an award the file does not expect once it expects one', () => {
    const [side2, side1, main] = s.expect.filter((item) => item.kind === 'award');
    if (side2?.kind !== 'award' || side1 === undefined || main === undefined) throw new Error('three awards');
    expect(checkOutputs([{ ...side2, shares: { 7: 1399 } }, side1, main], replayed, s.codeOf)).toHaveLength(
      1,
    );
    expect(checkOutputs([side1, main], replayed, s.codeOf)).toEqual([
      expect.stringMatching(/^unexpected award pot 2 to \[7\]/),
    ]);
  });

  it('ignores awards in a file that expects none', () => {
    const others = s.expect.filter((item) => item.kind !== 'award');
    expect(checkOutputs(others, replayed, s.codeOf)).toEqual([]);
  });
});

describe('expected awards in a scenario file', () => {
  const file = (expect: string) => `name: awards
profile: tda-2007
table: { seats: 9, chipUnit: 5, rake: { percent: 5, cap: 70 } }
decks: [A, B]
events:
  - { hand.start: { button: 3, players: [1, 2, 3], blinds: [50, 100], deck: A } }
expect:
  - ${expect}
`;

  it('reads an item with pot and winners as an award, shares keyed by seat', () => {
    const s = parseScenarioText(
      file('{ pot: 1, winners: [2, 3], amount: null, shares: { 2: 85, 3: 80 } }'),
      'f',
    );
    expect(s.expect).toEqual([
      { kind: 'award', pot: 1, winners: [2, 3], amount: null, shares: { 2: 85, 3: 80 } },
    ]);
    expect(s.config).toMatchObject({ chipUnit: 5, rake: { percent: 5, cap: 70 } });
  });

  it('refuses an award without winners, or with an incident', () => {
    expect(() => parseScenarioText(file('{ pot: 0 }'), 'f')).toThrow(/an award needs its pot and winners/);
    expect(() =>
      parseScenarioText(file('{ pot: 0, winners: [1], incident: DECK_COUNT, ruling: DECK_REJECTED }'), 'f'),
    ).toThrow(/an award names its pot/);
  });
});
