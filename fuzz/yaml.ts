import { stringify } from 'yaml';
import { ascii, between, type Mutation, mutate, pick, type Rand } from './mutate.js';

/**
 * Hostile YAML texts for the loaders that read YAML (the config, scenarios): a sample written as YAML and
 * mutated with YAML's own syntax (anchors, aliases, tags, merge keys, block scalars, directives), and the
 * classic attacks: alias bombs (a billion laughs; a long list aliased many times; an alias inside its own
 * anchor) and nesting deeper than the parser's stack.
 */

const TOKENS = ascii(
  '&a ',
  '*a',
  '<<: *a\n',
  '!!binary ',
  '!!set ',
  '!!js/function ',
  '!custom ',
  '? ',
  ': ',
  '- ',
  '|\n',
  '>-\n',
  '---\n',
  '...\n',
  '%YAML 1.1\n',
  '\t',
  '\n  ',
  '"',
  "'",
  '#',
  '{',
  '[',
  '~',
  '.nan',
  '0x7FFFFFFFFFFFFFFFF',
  '1e400',
  '__proto__: 1\n',
);

/** Ten lists of ten, each of the one before: 10^9 values from a few hundred bytes. */
function billionLaughs(): string {
  const names = 'abcdefghij';
  const lines = [`a: &a [${Array(10).fill('"lol"').join(', ')}]`];
  for (let i = 1; i < names.length; i++) {
    lines.push(
      `${names[i]}: &${names[i]} [${Array(10)
        .fill(`*${names[i - 1]}`)
        .join(', ')}]`,
    );
  }
  return lines.join('\n');
}

/** One long list, then many keys aliasing it: few aliases for the parser, a huge document for the schema. */
function wideAlias(rand: Rand): string {
  const list = Array.from({ length: between(rand, 1000, 3000) }, (_, i) => `x${i}`).join(', ');
  const uses = Array.from({ length: between(rand, 100, 500) }, (_, i) => `  k${i}: *w`);
  return [`w: &w [${list}]`, pick(rand, ['devices:', 'events:', 'table:']), ...uses].join('\n');
}

function deepNesting(rand: Rand): string {
  const depth = between(rand, 1000, 5000);
  return rand() < 0.5 ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'- '.repeat(depth)}x`;
}

const ATTACKS = [billionLaughs, wideAlias, deepNesting, () => '&a [ *a ]', () => 'a: &a { b: *a }'];

/** A YAML text: mostly a sample mutated with YAML syntax, now and then an attack. */
export function hostileYaml(rand: Rand, samples: readonly unknown[]): Buffer {
  if (rand() < 0.005) return Buffer.from(pick(rand, ATTACKS)(rand));
  const seeds = yamlSeeds(samples);
  return mutate(rand, { seeds, tokens: TOKENS, maxBytes: 16 * 1024 } satisfies Mutation);
}

const seedCache = new WeakMap<readonly unknown[], Buffer[]>();

function yamlSeeds(samples: readonly unknown[]): Buffer[] {
  let seeds = seedCache.get(samples);
  if (!seeds) {
    seeds = samples.map((sample) => Buffer.from(stringify(sample)));
    seedCache.set(samples, seeds);
  }
  return seeds;
}
