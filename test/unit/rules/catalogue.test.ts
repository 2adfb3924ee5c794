import { describe, expect, it } from 'vitest';
import { FLOOR_PROCEDURES } from '../../../src/rules/decisions.js';
import { PROFILE_IDS, PROFILES, procedure, profileById, rule } from '../../../src/rules/index.js';
import { INCIDENTS, RULINGS } from '../../../src/rules/types.js';
import { CATALOGUE } from '../../rulings-catalogue.js';

describe('CATALOGUE × profiles', () => {
  for (const entry of CATALOGUE) {
    for (const id of PROFILE_IDS) {
      it(`${id}: ${entry.row} → ${entry.expected[id]}`, () => {
        const decision = PROFILES[id].decide(entry.facts);
        expect(decision.ruling).toBe(entry.expected[id]);
        expect(decision.rule.startsWith(`${id} `)).toBe(true);
        expect(decision.rule.length).toBeGreaterThan(id.length + 1);
        expect(decision.floor).toBe(entry.floor[id]);
        if (decision.ruling === 'CALL_FLOOR' || decision.ruling === 'CONTINUE') {
          expect(decision.reason?.fr).toBeTruthy();
          expect(decision.reason?.en).toBeTruthy();
        }
      });
    }
  }

  it('has every incident', () => {
    const seen = new Set(CATALOGUE.map((entry) => entry.facts.incident));
    expect(INCIDENTS.filter((incident) => !seen.has(incident))).toEqual([]);
  });

  it('reaches every ruling with some profile', () => {
    const reached = new Set(CATALOGUE.flatMap((entry) => PROFILE_IDS.map((id) => entry.expected[id])));
    expect(RULINGS.filter((ruling) => !reached.has(ruling))).toEqual([]);
  });

  it('names each row once', () => {
    const rows = CATALOGUE.map((entry) => entry.row);
    expect(new Set(rows).size).toBe(rows.length);
  });
});

describe('procedure', () => {
  for (const ruling of RULINGS) {
    it(`${ruling}: steps with texts in both languages and unique codes, for any facts`, () => {
      for (const { facts } of CATALOGUE) {
        const steps = procedure(ruling, facts);
        expect(steps.length).toBeGreaterThan(0);
        for (const step of steps) {
          expect(step.code).toMatch(/^[A-Z][A-Z0-9_]*$/);
          expect(step.text.fr.trim()).not.toBe('');
          expect(step.text.en.trim()).not.toBe('');
        }
        expect(new Set(steps.map((step) => step.code)).size).toBe(steps.length);
      }
    });
  }

  it('opens every floor procedure with a call to the floor', () => {
    for (const ruling of FLOOR_PROCEDURES) {
      if (ruling === 'CALL_FLOOR') continue;
      for (const { facts } of CATALOGUE) expect(procedure(ruling, facts)[0]?.code).toBe('CALL_FLOOR');
    }
  });

  it('CALL_FLOOR: stop, call the floor, show the facts, enter the decision', () => {
    const codes = procedure('CALL_FLOOR', { incident: 'CARD_NOT_RETURNED' }).map((step) => step.code);
    expect(codes).toEqual(['STOP_PLAY', 'CALL_FLOOR', 'SHOW_FACTS', 'ENTER_DECISION']);
  });

  it('MISDEAL: the verified steps in RULINGS.md order', () => {
    const steps = procedure('MISDEAL', { incident: 'SEAT_SKIPPED' });
    expect(steps.map((step) => step.code)).toEqual([
      'STOP_DEAL',
      'COLLECT_CARDS',
      'RETURN_BETS',
      'BUTTON_STAYS',
      'RESHUFFLE',
      'REDEAL',
    ]);
    expect(steps.map((step) => step.check)).toEqual([
      undefined,
      'cards-collected',
      'bets-returned',
      'button-stays',
      'shuffler-verified',
      undefined,
    ]);
  });
});

describe('profiles', () => {
  it('are keyed by their own id', () => {
    for (const id of PROFILE_IDS) expect(PROFILES[id].id).toBe(id);
    expect(PROFILE_IDS).toEqual(['main-event-2014', 'french-casino', 'tda-2007', 'tda-2024']);
  });

  it('are found by id', () => {
    expect(profileById('tda-2007')).toBe(PROFILES['tda-2007']);
    expect(profileById('tda-2024')).toBe(PROFILES['tda-2024']);
    expect(profileById('tda-2025')).toBeUndefined();
    expect(profileById('toString')).toBeUndefined();
  });

  it('rule() gives the decision with its procedure', () => {
    const ruled = rule(PROFILES['main-event-2014'], { incident: 'SEAT_SKIPPED' });
    expect(ruled.decision).toEqual({ ruling: 'MISDEAL', rule: 'main-event-2014 §III.e', floor: false });
    expect(ruled.steps).toEqual(procedure('MISDEAL', { incident: 'SEAT_SKIPPED' }));
  });
});
