import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  nextHandProcedure,
  PROFILE_IDS,
  PROFILES,
  procedure,
  promptProcedure,
  rule,
} from '../../../src/rules/index.js';
import {
  EXPECTED_STEPS,
  EXPECTED_TEXTS,
  STEP_TEXTS,
  type StepCode,
  stepText,
} from '../../../src/rules/step-texts.js';
import { RULINGS, type Step, type Street, type TableOutput, type Text } from '../../../src/rules/types.js';
import { parseScenarioText } from '../../../src/scenario/load.js';
import { replayEvents } from '../../../src/table/table.js';
import { CATALOGUE } from '../../rulings-catalogue.js';

const ROOT = join(import.meta.dirname, '../../..');
const CORPUS = [join(ROOT, 'test/scenarios'), join(ROOT, '../shared/scenarios')].flatMap((folder) =>
  readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((name) => ['.yaml', '.yml', '.json'].includes(extname(name)))
    .map((name) => join(folder, name)),
);

const HANDS = [
  { button: 3, sb: 4, bb: 5, blinds: [50, 100] as const },
  { button: 3, sb: null, bb: 5, blinds: [50, 100] as const, ante: 10, posted: [7, 8] },
];

const OUTPUTS: readonly TableOutput[] = CORPUS.flatMap((file) => {
  const scenario = parseScenarioText(readFileSync(file, 'utf8'), file);
  return replayEvents(scenario.config, scenario.events);
});

/** What profiles give: their decisions over the ruling catalogue's facts, the prompts, the corpus's outputs. */
const GIVEN: readonly Step[] = [
  ...PROFILE_IDS.flatMap((id) => CATALOGUE.flatMap(({ facts }) => rule(PROFILES[id], facts).steps)),
  ...promptProcedure('ALL_IN_SHOWDOWN'),
  ...HANDS.flatMap(nextHandProcedure),
  ...OUTPUTS.flatMap((output) => output.steps),
];

/** PROCEDURE_NOT_FOLLOWED's reason, as each profile words it for each `expected` code. */
const NOT_FOLLOWED = EXPECTED_STEPS.flatMap((expected) =>
  PROFILE_IDS.map((id) => ({
    id,
    expected,
    reason: PROFILES[id].decide({ incident: 'PROCEDURE_NOT_FOLLOWED', expected }).reason,
  })),
);
const REASONS: readonly Text[] = NOT_FOLLOWED.flatMap(({ reason }) => (reason ? [reason] : []));
/** And every ruling's procedure over every fact, as a house's own profile could decide. */
const ANY: readonly Step[] = [
  ...GIVEN,
  ...RULINGS.flatMap((ruling) => CATALOGUE.flatMap(({ facts }) => procedure(ruling, facts))),
];

const isCode = (code: string): code is StepCode => Object.hasOwn(STEP_TEXTS, code);

/** What each street's name may follow, article and gender agreeing (le flop, le turn, la river). */
const FRENCH_BEFORE: Readonly<Record<Street, readonly string[]>> = {
  flop: ['le', 'du', 'au', 'nouveau'],
  turn: ['le', 'du', 'au', 'nouveau'],
  river: ['la', 'nouvelle'],
};
const ENGLISH_BEFORE = ['the', 'new', 'premature', 'first', 'third', 'fourth', 'three', 'four'];
/** English words that are no French card-room word (flop, turn, river, board, floor, blinds are). */
const ENGLISH_WORDS = new Set(
  'the and of to in it is for with card cards burn deal dealt stub seat button muck fold folded street hand small big next again preflop'.split(
    ' ',
  ),
);
const RAW_CODE = /\b[A-Z][A-Z0-9_]+\b|\bpreflop\b/;
const LEFT_OVER = /\$\{|undefined|null|NaN|\[object/;

/** Each street name in `text` with the word before it (lowercase; '' at the start). */
function streetsIn(text: string, names: RegExp): { street: Street; before: string }[] {
  return [...text.matchAll(names)].map((match) => ({
    street: (match[1] as string).toLowerCase() as Street,
    before: (/(\p{L}+)\s+$/u.exec(text.slice(0, match.index))?.[1] ?? '').toLowerCase(),
  }));
}

const unique = (texts: readonly string[]) => [...new Set(texts)].sort();
const french = unique([...ANY.map((step) => step.text.fr), ...REASONS.map((reason) => reason.fr)]);
const english = unique([...ANY.map((step) => step.text.en), ...REASONS.map((reason) => reason.en)]);

describe('the step message catalogue', () => {
  it('words every step a profile gives, in both languages', () => {
    expect(GIVEN.length).toBeGreaterThan(CATALOGUE.length);
    for (const { code, text } of ANY) {
      expect(isCode(code), code).toBe(true);
      expect(text.fr.trim(), code).not.toBe('');
      expect(text.en.trim(), code).not.toBe('');
      expect(text.fr, code).not.toBe(text.en);
      const entry = STEP_TEXTS[code as StepCode];
      if (typeof entry !== 'function') expect(text, code).toEqual(entry);
    }
  });

  it('has no entry that no profile, prompt or corpus file uses', () => {
    const given = new Set(GIVEN.map((step) => step.code));
    expect(Object.keys(STEP_TEXTS).filter((code) => !given.has(code))).toEqual([]);
  });

  it('writes a text under one code only', () => {
    for (const language of ['fr', 'en'] as const) {
      const codes = new Map<string, Set<string>>();
      for (const { code, text } of ANY)
        codes.set(text[language], (codes.get(text[language]) ?? new Set()).add(code));
      expect([...codes].filter(([, of]) => of.size > 1)).toEqual([]);
    }
  });

  it('words every PROCEDURE_NOT_FOLLOWED `expected` code as a reason in both languages, from its step', () => {
    expect(EXPECTED_STEPS.length).toBeGreaterThan(0);
    for (const { id, expected, reason } of NOT_FOLLOWED) {
      const what = `${id} ${expected}`;
      expect(isCode(expected), what).toBe(true);
      expect(reason, what).toEqual({
        fr: `les capteurs contredisent la procédure : ${EXPECTED_TEXTS[expected].fr}`,
        en: `the sensors contradict the procedure: ${EXPECTED_TEXTS[expected].en}`,
      });
      expect(reason?.fr, what).not.toContain(expected);
      expect(reason?.en, what).not.toContain(expected);
      const english = (reason?.fr.toLowerCase().match(/\p{L}+/gu) ?? []).filter((word) =>
        ENGLISH_WORDS.has(word),
      );
      expect(english, what).toEqual([]);
    }
    for (const language of ['fr', 'en'] as const)
      expect(new Set(REASONS.map((reason) => reason[language])).size, language).toBe(EXPECTED_STEPS.length);
  });

  it('has every `expected` code the table raises in the corpus, and no other reason for it', () => {
    const raised = OUTPUTS.flatMap((output) =>
      output.kind === 'incident' && output.incident === 'PROCEDURE_NOT_FOLLOWED' ? [output.reason] : [],
    );
    expect(unique(raised.map((reason) => reason?.en ?? ''))).toEqual(
      unique(REASONS.map((reason) => reason.en)),
    );
    expect(unique(raised.map((reason) => reason?.fr ?? ''))).toEqual(
      unique(REASONS.map((reason) => reason.fr)),
    );
  });

  it('interpolates no code and leaves no placeholder, in either language', () => {
    for (const text of [...french, ...english]) {
      expect(text).not.toMatch(RAW_CODE);
      expect(text).not.toMatch(LEFT_OVER);
    }
  });

  // Capitalised too in French: a street at the start of a sentence would lack its article. English
  // streets are lowercase ("Turn the face-up card over" is the verb).
  it('speaks French in French: no English word, each street with its article (le flop, le turn, la river)', () => {
    const wrong = french.flatMap((text) =>
      [
        ...(text.toLowerCase().match(/\p{L}+/gu) ?? []).filter((word) => ENGLISH_WORDS.has(word)),
        ...streetsIn(text, /\b(flop|turn|river)\b/giu)
          .filter(({ street, before }) => !FRENCH_BEFORE[street].includes(before))
          .map(({ street, before }) => `${before} ${street}`),
        // The rulebooks' singular is "blinde" (main-event-2014 §II.j), as POST_BLINDS says it.
        ...(text.match(/\b(petite|grosse) blind\b/gu) ?? []),
      ].map((problem) => `${problem}: ${text}`),
    );
    expect(wrong).toEqual([]);
  });

  it('names each street with a determiner in English', () => {
    const wrong = english.filter((text) =>
      streetsIn(text, /\b(flop|turn|river)\b/gu).some(({ before }) => !ENGLISH_BEFORE.includes(before)),
    );
    expect(wrong).toEqual([]);
  });

  it.each([
    ['flop', 'le flop', 'the flop'],
    ['turn', 'le turn', 'the turn'],
    ['river', 'la river', 'the river'],
  ] as const)('words the %s as "%s" and "%s"', (street, fr, en) => {
    expect(stepText('TAKE_BACK', { street, withBurn: true })).toEqual({
      fr: `Reprenez toutes les cartes sorties pour ${fr}, carte brûlée comprise.`,
      en: `Take back every card out for ${en}, burn card included.`,
    });
    expect(stepText('REDEAL_STREET', { street, withBurn: false })).toEqual({
      fr: `Donnez à nouveau ${fr} sans brûler.`,
      en: `Deal ${en} again without burning.`,
    });
    if (street === 'flop') return;
    expect(stepText('FIRST_TO_BURN', { street })).toEqual({
      fr: `La carte donnée pour ${fr} devient la carte brûlée : posez-la avec les brûlées.`,
      en: `The card dealt as ${en} becomes the burn card: move it to the burn pile.`,
    });
    expect(stepText('COMPLETE_STREET', { street })).toEqual({
      fr: `Donnez la carte suivante pour ${fr}.`,
      en: `Deal the next card as ${en}.`,
    });
  });

  it('words the next hand from its seats and amounts', () => {
    expect(nextHandProcedure({ button: 9, sb: 1, bb: 2, blinds: [100, 200], ante: 25, posted: [4] })).toEqual(
      [
        { code: 'PLACE_BUTTON', text: { fr: 'Bouton au siège 9.', en: 'The button on seat 9.' } },
        {
          code: 'POST_BLINDS',
          text: {
            fr: 'Petite blinde (100) : siège 1 ; grosse blinde (200) : siège 2.',
            en: 'Small blind (100): seat 1; big blind (200): seat 2.',
          },
        },
        {
          code: 'POST_ANTES',
          text: { fr: 'Ante de 25 pour chaque joueur.', en: 'An ante of 25 from every player.' },
        },
        {
          code: 'NEWCOMER_POSTS',
          text: { fr: 'Siège 4, nouveau joueur : met 200 au pot.', en: 'Seat 4, a new player: puts 200 in.' },
        },
      ],
    );
  });
});
