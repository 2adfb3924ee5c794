import type { CardRef } from '../domain/cards.js';
import type { PromptReport, TableOutput } from '../rules/types.js';
import type { Expectation, PromptExpectation } from './schema.js';

/**
 * Compares a replay's outputs with a scenario's `expect` (DESIGN.md, `--check`): expected incidents match
 * in order on incident and ruling, and on seats/cards (as sets) and `at` where given; an incident the file
 * does not expect is a difference; prompts count only when the file expects that prompt.
 * Returns one readable line per difference, none when the replay is as expected.
 */
export function checkOutputs(
  expect: readonly Expectation[],
  outputs: readonly TableOutput[],
  codeOf: (card: CardRef) => string,
): string[] {
  const expectedPrompts = new Set(expect.flatMap((item) => (item.kind === 'prompt' ? [item.prompt] : [])));
  const actual = outputs.filter((output) => output.kind === 'incident' || expectedPrompts.has(output.prompt));

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
      lines.push(`expected ${describe(wanted, codeOf)}, got ${got ? describe(got, codeOf) : 'nothing'}`);
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

function matches(wanted: Expectation, got: TableOutput): boolean {
  if (wanted.at !== undefined && wanted.at !== got.at) return false;
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
      ))
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

function sameSet<T>(a: readonly T[], b: readonly T[]): boolean {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((item) => right.has(item));
}

/** An expectation or an output in one line, with the fields it has. */
function describe(item: Expectation | TableOutput, codeOf: (card: CardRef) => string): string {
  const parts = [item.kind === 'incident' ? `${item.incident} (${item.ruling})` : `prompt ${item.prompt}`];
  if (item.seats !== undefined) parts.push(`seats [${item.seats.join(', ')}]`);
  if (item.kind === 'prompt' && item.button !== undefined) {
    parts.push(`button ${item.button} sb ${item.sb ?? 'none'} bb ${item.bb}`);
    if (item.blinds) parts.push(`blinds ${item.blinds.join('/')}`);
  }
  if (item.kind === 'incident' && item.cards !== undefined)
    parts.push(`cards [${item.cards.map(codeOf).join(', ')}]`);
  if (item.at !== undefined) parts.push(`at ${item.at}`);
  return parts.join(' ');
}
