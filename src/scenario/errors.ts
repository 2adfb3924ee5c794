import type { z } from 'zod';
import { cut } from '../config/problems.js';

/** Past these lengths a key or a problem mostly quotes the (hostile) file: it is cut. */
const MAX_KEY = 40;
const MAX_PROBLEM = 300;
const MAX_SHOWN = 40;

/** A scenario the loader refuses: the message names the file, where in it, and what is wrong. */
export class ScenarioError extends Error {
  override name = 'ScenarioError';

  constructor(file: string, path: readonly PropertyKey[], problem: string) {
    super(`${file}: ${path.length > 0 ? `${formatPath(path)}: ` : ''}${cut(problem, MAX_PROBLEM)}`);
  }
}

/** `['events', 3, 'card', 'card']` → `events[3].card.card`, as a reader finds it in the file. */
function formatPath(path: readonly PropertyKey[]): string {
  return path
    .map((key, i) =>
      typeof key === 'number' ? `[${key}]` : `${i > 0 ? '.' : ''}${cut(String(key), MAX_KEY)}`,
    )
    .join('');
}

const TYPE_NAMES: Record<string, string> = {
  number: 'a number',
  int: 'a whole number',
  string: 'a string',
  boolean: 'true or false',
  array: 'a list',
  tuple: 'a list',
  object: 'a mapping',
  record: 'a mapping',
};

/** A value as the reader wrote it, short. */
export function show(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (value === undefined) return 'nothing';
  if (value !== null && typeof value === 'object') return 'a mapping';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value); // NaN, Infinity
  return cut(JSON.stringify(value), MAX_SHOWN);
}

/**
 * Error map for scenario parsing: zod's generic issues in the scenario's words. Schema-specific
 * messages (card codes, seats, decks) are set where the schema is built and take precedence.
 */
export function describeIssue(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'required';
      return `expected ${TYPE_NAMES[issue.expected] ?? issue.expected}, got ${show(issue.input)}`;
    case 'invalid_value': {
      const options = issue.values.map(show).join(' | ');
      return issue.input === undefined
        ? `required (${options})`
        : `expected ${options}, got ${show(issue.input)}`;
    }
    case 'unrecognized_keys':
      return `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map(show).join(', ')}`;
    case 'too_small':
      if (issue.origin === 'array') {
        return `needs at least ${issue.minimum} item${issue.minimum === 1 ? '' : 's'}`;
      }
      if (issue.origin === 'string') return 'must not be empty';
      return `must be at least ${issue.minimum}, got ${show(issue.input)}`;
    case 'too_big':
      if (issue.origin === 'array') return `has more than ${issue.maximum} items`;
      return `must be at most ${issue.maximum}, got ${show(issue.input)}`;
    default:
      return undefined;
  }
}
