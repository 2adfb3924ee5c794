import { describe, expect, it } from 'vitest';
import {
  CHECK_NAMES,
  INCIDENT_NAMES,
  INCIDENT_WARNINGS,
  PROMPT_NAMES,
  RULING_NAMES,
  t,
  UI,
} from '../../../src/display/web/messages.js';
import { INCIDENTS, PROMPTS, RULINGS, type Text } from '../../../src/rules/types.js';

const LANGUAGES = ['fr', 'en'] as const;
const marks = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('display message catalogue', () => {
  const catalogues: [string, readonly string[], Readonly<Record<string, Text>>][] = [
    ['incident', INCIDENTS, INCIDENT_NAMES],
    ['ruling', RULINGS, RULING_NAMES],
    ['prompt', PROMPTS, PROMPT_NAMES],
  ];

  it.each(catalogues)('names every %s code in French and English', (_, codes, names) => {
    for (const code of codes) {
      for (const language of LANGUAGES)
        expect(names[code]?.[language]?.trim(), `${code} ${language}`).toBeTruthy();
    }
    expect(Object.keys(names).sort()).toEqual([...codes].sort());
  });

  it('has every UI string, sensor check and incident warning in both languages, with the same {marks}', () => {
    for (const [key, text] of Object.entries({ ...UI, ...CHECK_NAMES, ...INCIDENT_WARNINGS })) {
      for (const language of LANGUAGES) expect(text[language].trim(), `${key} ${language}`).not.toBe('');
      expect(marks(text.fr), key).toEqual(marks(text.en));
    }
  });

  it('fills marks and keeps the ones it has no value for', () => {
    expect(t('fr', 'hand', { n: 12 })).toBe('Coup n° 12');
    expect(t('en', 'seat', { n: 3 })).toBe('Seat 3');
    expect(t('en', 'hand')).toBe('Hand #{n}');
  });
});
