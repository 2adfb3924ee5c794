import { describe, expect, it } from 'vitest';
import type { AwardReport, PromptReport, TableOutput } from '../../src/rules/types.js';
import { loadScenario } from '../../src/scenario/load.js';
import { replayEvents } from '../../src/table/table.js';
import {
  describeHand,
  type ExpectedAward,
  generateSessionDetailed,
  type HandInfo,
  handAt,
  outcomeLabel,
  type Session,
} from './clean-hands.js';

const HANDS = 10_000;
const PER_SESSION = 50;

/** The hand a NEXT_HAND prompt says the table started, against the one the generator dealt. */
function startedAsDealt(prompt: PromptReport, hand: HandInfo | undefined): string | null {
  const got = [prompt.button, prompt.sb, prompt.bb, prompt.players, prompt.blinds];
  const dealt = hand && [hand.button, hand.sb, hand.bb, [...hand.players].sort((a, b) => a - b), hand.blinds];
  if (JSON.stringify(got) === JSON.stringify(dealt)) return null;
  return `NEXT_HAND button/sb/bb/players/blinds ${JSON.stringify(got)}, dealt ${JSON.stringify(dealt)}`;
}

/** What the machine said about one hand's showdown and pots. */
interface HandOutputs {
  awards: AwardReport[];
  prompts: Map<PromptReport['prompt'], PromptReport>;
}

/** The machine's outputs hand by hand (an output belongs to the hand holding the event it is about). */
function byHand(session: Session, outputs: readonly TableOutput[]): Map<number, HandOutputs> {
  const hands = new Map<number, HandOutputs>(
    session.hands.map((h) => [h.index, { awards: [], prompts: new Map() }]),
  );
  for (const output of outputs) {
    const mine = hands.get(handAt(session, output.at)?.index ?? -1);
    if (!mine) continue;
    if (output.kind === 'award') mine.awards.push(output);
    else if (output.kind === 'prompt') mine.prompts.set(output.prompt, output);
  }
  return hands;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const ascending = (seats: readonly number[]) => [...seats].sort((a, b) => a - b);

/**
 * One award against the generator's: the pot, its eligible seats, its winners (as a set) and the
 * tabled hands it names; its amount and shares too, unless the machine could not know them (null).
 */
function awardAsDealt(got: AwardReport, want: ExpectedAward, unknown: boolean): string | null {
  const wrong: string[] = [];
  if (got.pot !== want.pot) wrong.push(`pot ${got.pot}, expected ${want.pot}`);
  if (!same(ascending(got.eligible), want.eligible)) wrong.push(`eligible [${got.eligible}]`);
  if (!same(ascending(got.winners), want.winners)) wrong.push(`winners [${got.winners}]`);
  if (!same(Object.entries(got.hands).sort(), Object.entries(want.hands).sort()))
    wrong.push(`hands ${JSON.stringify(got.hands)}, expected ${JSON.stringify(want.hands)}`);
  const blank = unknown && got.amount === null && got.shares === null;
  if (!blank && (got.amount !== want.amount || !same(got.shares, want.shares)))
    wrong.push(`amount ${got.amount} shares ${JSON.stringify(got.shares)}`);
  if (wrong.length === 0) return null;
  return `pot ${want.pot} (${want.amount} to [${want.winners}] ${JSON.stringify(want.shares)}): ${wrong.join('; ')}`;
}

/**
 * A hand's awards against the generator's, in order (side pots first, the highest first); where a
 * contribution was never known and the pots could not be layered, the tabled hands' ranking instead.
 */
function awardsAsDealt(hand: HandInfo, got: HandOutputs): string[] {
  const ranking = got.prompts.get('SHOWDOWN_RANKING');
  if (ranking && got.awards.length === 0 && hand.unknownAmounts) {
    const want = hand.showdown?.ranking;
    if (same(ranking.ranking, want)) return [];
    return [`ranking ${JSON.stringify(ranking.ranking)}, expected ${JSON.stringify(want)}`];
  }
  const { awards } = got;
  if (awards.length !== hand.awards.length)
    return [`${awards.length} awards [${awards.map((a) => a.pot)}], expected ${hand.awards.length}`];
  return hand.awards.flatMap(
    (want, i) => awardAsDealt(awards[i] as AwardReport, want, hand.unknownAmounts) ?? [],
  );
}

/** ALL_IN_SHOWDOWN when the hands went face up for an all-in; otherwise SHOW_ORDER in the order they were called. */
function showdownPromptsAsDealt(hand: HandInfo, got: HandOutputs): string[] {
  const wrong: string[] = [];
  const faceUp = hand.showdown?.faceUp === true;
  if (got.prompts.has('ALL_IN_SHOWDOWN') !== faceUp)
    wrong.push(`ALL_IN_SHOWDOWN ${faceUp ? 'missing' : 'unexpected'}`);
  // After a board run out, the last betting round is the last one that was bet (RULINGS.md "Show order").
  const order = got.prompts.get('SHOW_ORDER')?.seats ?? null;
  if (!same(order, hand.showdown?.showOrder ?? null))
    wrong.push(`SHOW_ORDER [${order}], expected [${hand.showdown?.showOrder ?? ''}]`);
  return wrong;
}

/** How much of the showdown the soak went through: so the check is not vacuous. */
interface Tally {
  showdowns: number;
  faceUp: number;
  mucked: number;
  awards: number;
  contested: number;
  splits: number;
  oddChips: number;
  sidePots: number;
  raked: number;
  amountsNull: number;
  rankings: number;
}

function count(tally: Tally, hand: HandInfo, got: HandOutputs): void {
  if (hand.showdown) tally.showdowns++;
  if (hand.showdown?.faceUp) tally.faceUp++;
  if (hand.showdown?.mucked.length) tally.mucked++;
  if (got.prompts.has('SHOWDOWN_RANKING')) tally.rankings++;
  for (const a of got.awards) {
    tally.awards++;
    if (Object.keys(a.hands).length > 0) tally.contested++;
    if (a.winners.length > 1) tally.splits++;
    const shares = Object.values(a.shares ?? {});
    if (new Set(shares).size > 1) tally.oddChips++;
    if (a.pot > 0) tally.sidePots++;
    if (a.amount !== null && shares.reduce((n, x) => n + x, 0) < a.amount) tally.raked++;
    if (a.amount === null) tally.amountsNull++;
  }
}

describe('soak: random clean hands', () => {
  it(`${HANDS} clean hands, each after the first started by next-hand, raise no incident (a false alarm stops a real game) and award every pot as dealt`, () => {
    const alarms: string[] = [];
    const alarm = (text: string, session: Session, hand: HandInfo | undefined, at?: number) => {
      const where = hand ? describeHand(session, hand.index, at) : `seed ${session.seed} event ${at}`;
      const which = `seed ${session.seed} hand ${hand?.index} ${hand ? outcomeLabel(hand.outcome) : ''}`;
      alarms.push(alarms.length < 5 ? `${text}\n${where}` : `${text} (${which})`);
    };
    const tally: Tally = {
      showdowns: 0,
      faceUp: 0,
      mucked: 0,
      awards: 0,
      contested: 0,
      splits: 0,
      oddChips: 0,
      sidePots: 0,
      raked: 0,
      amountsNull: 0,
      rankings: 0,
    };
    let events = 0;
    let started = 0;
    for (let seed = 1; seed <= HANDS / PER_SESSION; seed++) {
      const session = generateSessionDetailed(seed, PER_SESSION);
      const scenario = loadScenario(session.scenario, `soak seed ${seed}`);
      events += scenario.events.length;
      const outputs = replayEvents(scenario.config, scenario.events);
      for (const output of outputs) {
        const hand = handAt(session, output.at);
        if (output.kind === 'prompt' && output.prompt === 'NEXT_HAND') {
          started++;
          const wrong = startedAsDealt(output, hand);
          if (wrong) alarm(wrong, session, hand, output.at);
        } else if (output.kind === 'incident')
          alarm(`${output.incident} ${output.ruling} seats ${output.seats}`, session, hand, output.at);
      }
      for (const [index, got] of byHand(session, outputs)) {
        const hand = session.hands[index] as HandInfo;
        count(tally, hand, got);
        const wrong = [...awardsAsDealt(hand, got), ...showdownPromptsAsDealt(hand, got)];
        if (wrong.length > 0) alarm(wrong.join('\n'), session, hand);
      }
    }
    expect(events).toBeGreaterThan(HANDS * 20);
    expect(alarms, alarms.slice(0, 5).join('\n\n')).toEqual([]);
    expect(started).toBe(HANDS - HANDS / PER_SESSION);
    // Roughly half the hands go to a showdown; their pots, split pots and side pots all come out.
    expect(tally.showdowns, JSON.stringify(tally)).toBeGreaterThan(HANDS * 0.35);
    expect(tally.awards).toBeGreaterThan(HANDS * 0.9);
    expect(tally.contested).toBeGreaterThan(HANDS * 0.4);
    expect(tally.splits).toBeGreaterThan(200);
    expect(tally.oddChips).toBeGreaterThan(30);
    expect(tally.sidePots).toBeGreaterThan(HANDS * 0.15);
    expect(tally.faceUp).toBeGreaterThan(HANDS * 0.1);
    expect(tally.mucked).toBeGreaterThan(HANDS * 0.05);
    expect(tally.raked).toBeGreaterThan(100);
  });
});
