import type { CardRef } from '../domain/cards.js';
import type { AwardReport, IncidentReport, PromptReport, TableOutput } from '../rules/types.js';
import type { Progress, Replay } from './progress.js';
import type { AwardExpectation, Expectation, IncidentExpectation, PromptExpectation } from './schema.js';

/**
 * Compares a replay with a scenario's `expect` (DESIGN.md, `--check`): expected incidents match in order
 * on incident and ruling, and on seats/cards (as sets), `at` and the procedure's sensed and confirmed
 * steps (as sets) where given; an incident the file does not expect is a difference; prompts count only
 * when the file expects that prompt. Expected awards match in their own order, apart from the incidents,
 * on pot and winners (as a set), and on amount, shares and `at` where given; awards count only once the
 * file expects one.
 * Returns one readable line per difference, none when the replay is as expected.
 */
export function checkOutputs(
  expect: readonly Expectation[],
  { outputs, progress }: Replay,
  codeOf: (card: CardRef) => string,
): string[] {
  const progressOf = (report: IncidentReport): Progress =>
    progress.get(report) ?? { sensed: [], confirmed: [] };
  const expectedPrompts = new Set(expect.flatMap((item) => (item.kind === 'prompt' ? [item.prompt] : [])));
  const awards = expect.filter((item) => item.kind === 'award');
  const others = expect.filter((item) => item.kind !== 'award');
  const actual = outputs.filter(
    (output) =>
      output.kind === 'incident' || (output.kind === 'prompt' && expectedPrompts.has(output.prompt)),
  );
  const awarded = awards.length === 0 ? [] : outputs.filter((output) => output.kind === 'award');
  return [
    ...differences(others, actual, progressOf, codeOf),
    ...differences(awards, awarded, progressOf, codeOf),
  ];
}

/** Differences between what was expected and what came, in order. */
function differences(
  expect: readonly Expectation[],
  actual: readonly TableOutput[],
  progressOf: (report: IncidentReport) => Progress,
  codeOf: (card: CardRef) => string,
): string[] {
  const matches = (wanted: Expectation, got: TableOutput) => matchesOutput(wanted, got, progressOf);

  // Longest in-order matching (as in a text diff), so one surprise does not shift every later comparison.
  const memo = new Map<number, number>();
  const best = (i: number, j: number): number => {
    const wanted = expect[i];
    const got = actual[j];
    if (wanted === undefined || got === undefined) return 0;
    const key = i * (actual.length + 1) + j;
    let found = memo.get(key);
    if (found === undefined) {
      found = matches(wanted, got) ? best(i + 1, j + 1) + 1 : Math.max(best(i + 1, j), best(i, j + 1));
      memo.set(key, found);
    }
    return found;
  };

  const lines: string[] = [];
  let missing: Expectation[] = [];
  let surplus: TableOutput[] = [];
  // Between two matches, pair what was expected with what came instead; the rest is missing or unexpected.
  const reportGap = () => {
    missing.forEach((wanted, k) => {
      const got = surplus[k];
      const steps = wanted.kind === 'incident' ? wanted.steps : undefined;
      // The steps the table took are worth saying only beside the steps the file expected.
      const gotSteps = steps && got?.kind === 'incident' ? progressOf(got) : undefined;
      lines.push(
        `expected ${describe(wanted, codeOf, steps)}, got ${got ? describe(got, codeOf, gotSteps) : 'nothing'}`,
      );
    });
    for (const got of surplus.slice(missing.length)) lines.push(`unexpected ${describe(got, codeOf)}`);
    missing = [];
    surplus = [];
  };
  for (let i = 0, j = 0; i < expect.length || j < actual.length; ) {
    const wanted = expect[i];
    const got = actual[j];
    if (wanted && got && matches(wanted, got) && best(i, j) === best(i + 1, j + 1) + 1) {
      reportGap();
      i++;
      j++;
    } else if (got && (!wanted || best(i, j + 1) >= best(i + 1, j))) {
      surplus.push(got);
      j++;
    } else if (wanted) {
      missing.push(wanted);
      i++;
    }
  }
  reportGap();
  return lines;
}

function matchesOutput(
  wanted: Expectation,
  got: TableOutput,
  progressOf: (report: IncidentReport) => Progress,
): boolean {
  if (wanted.at !== undefined && wanted.at !== got.at) return false;
  if (wanted.kind === 'award') return got.kind === 'award' && sameAward(wanted, got);
  if (got.kind === 'award') return false;
  if (wanted.seats !== undefined && !sameSet(wanted.seats, got.seats)) return false;
  if (wanted.kind === 'prompt')
    return got.kind === 'prompt' && got.prompt === wanted.prompt && sameHand(wanted, got);
  return (
    got.kind === 'incident' &&
    got.incident === wanted.incident &&
    got.ruling === wanted.ruling &&
    (wanted.cards === undefined ||
      sameSet(
        wanted.cards.map((card) => card.uid),
        got.cards.map((card) => card.uid),
      )) &&
    sameSteps(wanted, progressOf(got))
  );
}

/** The procedure's sensed and confirmed steps, each list as a set, where the file gives it. */
function sameSteps({ steps }: IncidentExpectation, progress: Progress): boolean {
  return (
    steps === undefined ||
    ((steps.sensed === undefined || sameSet(steps.sensed, progress.sensed)) &&
      (steps.confirmed === undefined || sameSet(steps.confirmed, progress.confirmed)))
  );
}

/** A NEXT_HAND prompt's hand: button, blinds' seats and amounts where the file gives them, players as a set. */
function sameHand(wanted: PromptExpectation, got: PromptReport): boolean {
  const same = (key: 'button' | 'sb' | 'bb') => wanted[key] === undefined || wanted[key] === got[key];
  return (
    same('button') &&
    same('sb') &&
    same('bb') &&
    (wanted.players === undefined || sameSet(wanted.players, got.players ?? [])) &&
    (wanted.blinds === undefined || wanted.blinds.join() === got.blinds?.join())
  );
}

/** An award's pot and winners (as a set), and its amount and shares where the file gives them. */
function sameAward(wanted: AwardExpectation, got: AwardReport): boolean {
  return (
    wanted.pot === got.pot &&
    sameSet(wanted.winners, got.winners) &&
    (wanted.amount === undefined || wanted.amount === got.amount) &&
    (wanted.shares === undefined || sameShares(wanted.shares, got.shares))
  );
}

function sameShares(a: Record<number, number> | null, b: Record<number, number> | null): boolean {
  if (a === null || b === null) return a === b;
  const seats = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...seats].every((seat) => a[Number(seat)] === b[Number(seat)]);
}

function sameSet<T>(a: readonly T[], b: readonly T[]): boolean {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((item) => right.has(item));
}

/** An expectation or an output in one line, with the fields it has, and the procedure's steps given. */
function describe(
  item: Expectation | TableOutput,
  codeOf: (card: CardRef) => string,
  steps?: Partial<Progress>,
): string {
  if (item.kind === 'award') return describeAward(item);
  const parts = [item.kind === 'incident' ? `${item.incident} (${item.ruling})` : `prompt ${item.prompt}`];
  if (item.seats !== undefined) parts.push(`seats [${item.seats.join(', ')}]`);
  if (item.kind === 'prompt' && item.button !== undefined) {
    parts.push(`button ${item.button} sb ${item.sb ?? 'none'} bb ${item.bb}`);
    if (item.blinds) parts.push(`blinds ${item.blinds.join('/')}`);
  }
  if (item.kind === 'incident' && item.cards !== undefined)
    parts.push(`cards [${item.cards.map(codeOf).join(', ')}]`);
  if (item.at !== undefined) parts.push(`at ${item.at}`);
  if (steps?.sensed !== undefined) parts.push(`sensed [${steps.sensed.join(', ')}]`);
  if (steps?.confirmed !== undefined) parts.push(`confirmed [${steps.confirmed.join(', ')}]`);
  return parts.join(' ');
}

function describeAward(item: AwardExpectation | AwardReport): string {
  const parts = [`award pot ${item.pot} to [${item.winners.join(', ')}]`];
  if (item.amount !== undefined) parts.push(`amount ${item.amount}`);
  if (item.shares !== undefined) parts.push(`shares ${JSON.stringify(item.shares)}`);
  if (item.at !== undefined) parts.push(`at ${item.at}`);
  return parts.join(' ');
}
