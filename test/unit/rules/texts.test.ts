import { describe, expect, it } from 'vitest';
import { PROFILE_IDS, PROFILES, procedure } from '../../../src/rules/index.js';
import { RULINGS } from '../../../src/rules/types.js';
import { CATALOGUE } from '../../rulings-catalogue.js';

const CARD_FACE = /\b[2-9TJQKA][shdc]\b/;

describe('texts never name a card face', () => {
  it('in any step of any procedure', () => {
    for (const ruling of RULINGS) {
      for (const { facts } of CATALOGUE) {
        for (const step of procedure(ruling, facts)) {
          expect(step.text.fr).not.toMatch(CARD_FACE);
          expect(step.text.en).not.toMatch(CARD_FACE);
        }
      }
    }
  });

  it('in any reason', () => {
    for (const { facts } of CATALOGUE) {
      for (const id of PROFILE_IDS) {
        const { reason } = PROFILES[id].decide(facts);
        expect(reason?.fr ?? '').not.toMatch(CARD_FACE);
        expect(reason?.en ?? '').not.toMatch(CARD_FACE);
      }
    }
  });
});

describe('procedure texts follow the facts', () => {
  const premature = { burnIdentifiable: true, pending: [7], actedAfterPending: false, cardsOut: 1 };
  const en = (steps: ReturnType<typeof procedure>) => steps.map((step) => step.text.en).join(' ');
  const fr = (steps: ReturnType<typeof procedure>) => steps.map((step) => step.text.fr).join(' ');

  it('BURN_AND_REPLACE: the 3rd card of the stub on the flop and turn, the next card on the river', () => {
    expect(en(procedure('BURN_AND_REPLACE', { incident: 'PREMATURE_FLOP', ...premature }))).toContain(
      '3rd card of the stub',
    );
    expect(en(procedure('BURN_AND_REPLACE', { incident: 'PREMATURE_TURN', ...premature }))).toContain(
      '3rd card of the stub',
    );
    const river = procedure('BURN_AND_REPLACE', { incident: 'PREMATURE_RIVER', ...premature });
    expect(en(river)).toContain('next card of the stub');
    expect(en(river)).not.toContain('3rd');
    expect(river.map((step) => step.code)).toContain('STUB_MIXED');
  });

  it('FIRST_TO_BURN: the next card is the third flop card, or the turn/river', () => {
    const flop = procedure('FIRST_TO_BURN', { incident: 'FLOP_NO_BURN', identifiable: true });
    const turn = procedure('FIRST_TO_BURN', { incident: 'TURN_NO_BURN', identifiable: true });
    const river = procedure('FIRST_TO_BURN', { incident: 'RIVER_NO_BURN', identifiable: true });
    expect(en(flop)).toContain('Deal the next card as the third flop card.');
    expect(fr(flop)).toContain('Donnez la carte suivante comme troisième carte du flop.');
    expect(en(turn)).toContain('Deal the next card as the turn.');
    expect(fr(turn)).toContain('La carte donnée pour le turn devient la carte brûlée');
    expect(fr(turn)).toContain('Donnez la carte suivante pour le turn.');
    expect(en(river)).toContain('Deal the next card as the river.');
    expect(fr(river)).toContain('Donnez la carte suivante pour la river.');
  });

  it('TURN_SET_ASIDE: the next card is dealt for the turn, the river without a burn', () => {
    const steps = procedure('TURN_SET_ASIDE', { incident: 'PREMATURE_TURN', ...premature });
    expect(fr(steps)).toContain('Brûlez une nouvelle carte et donnez la suivante pour le turn.');
    expect(fr(steps)).toContain('Donnez la river sans brûler.');
    expect(en(steps)).toContain('Burn a new card and deal the next one as the turn.');
  });

  it('REPLACE_AT_END warns when the button gets two cards in a row', () => {
    const exposed = {
      incident: 'EXPOSED_CARD',
      by: 'dealer',
      dealPosition: 9,
      dealerExposedCount: 1,
    } as const;
    expect(en(procedure('REPLACE_AT_END', { ...exposed, toButton: true }))).toContain('two cards in a row');
    expect(en(procedure('REPLACE_AT_END', { ...exposed, toButton: false }))).not.toContain(
      'two cards in a row',
    );
  });

  it('FLOP_SCRAMBLE mixes the cards RULINGS names for each flop error', () => {
    const noBurn = en(procedure('FLOP_SCRAMBLE', { incident: 'FLOP_NO_BURN', identifiable: false }));
    const twoBurns = en(procedure('FLOP_SCRAMBLE', { incident: 'FLOP_TWO_BURNS', identifiable: false }));
    const four = en(
      procedure('FLOP_SCRAMBLE', {
        incident: 'FLOP_FOUR_CARDS',
        identifiable: false,
        burnIdentifiable: true,
      }),
    );
    expect(noBurn).toContain('three flop cards');
    expect(twoBurns).toContain('the two burn cards');
    expect(four).toContain('four flop cards');
  });

  it('PREMATURE_RESHUFFLE_* deal the street again with or without a burn', () => {
    const river = { incident: 'PREMATURE_RIVER', ...premature } as const;
    expect(en(procedure('PREMATURE_RESHUFFLE_NO_BURN', river))).toContain(
      'Deal the river again without burning.',
    );
    expect(fr(procedure('PREMATURE_RESHUFFLE_NO_BURN', river))).toContain(
      'Reprenez la river ; la carte brûlée reste.',
    );
    const flop = { incident: 'PREMATURE_FLOP', ...premature, burnIdentifiable: false } as const;
    expect(en(procedure('PREMATURE_RESHUFFLE_WITH_BURN', flop))).toContain(
      'Burn a card and deal the flop again.',
    );
    expect(fr(procedure('PREMATURE_RESHUFFLE_WITH_BURN', flop))).toContain(
      'Brûlez une carte et donnez à nouveau le flop.',
    );
  });

  it('DECK_REJECTED says what to fix', () => {
    expect(en(procedure('DECK_REJECTED', { incident: 'DECK_FACE_UP' }))).toContain(
      'Turn the face-up card over',
    );
    expect(en(procedure('DECK_REJECTED', { incident: 'DECK_UNKNOWN_CARD' }))).toContain('foreign card');
  });
});
