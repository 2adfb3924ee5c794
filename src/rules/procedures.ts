import { STREET_OF } from './decisions.js';
import { type StepCode, type StepParams, stepText } from './step-texts.js';
import type {
  IncidentCode,
  IncidentFacts,
  Procedure,
  PromptCode,
  RulingCode,
  Step,
  Street,
} from './types.js';

/** A step of a procedure, its text from the catalogue (step-texts.ts); a sensor check is added where one sees it. */
export function step<C extends StepCode>(code: C, ...params: StepParams<C>): Step {
  return { code, text: stepText(code, ...params) };
}

const STREETS: Partial<Record<IncidentCode, Street>> = STREET_OF;

/** Board rulings come from board incidents; any other incident is read as the flop, the first street. */
function streetOf(facts: IncidentFacts): Street {
  return STREETS[facts.incident] ?? 'flop';
}

/** First step of every `floor: true` procedure. */
export const CALL_THE_FLOOR = step('CALL_FLOOR', { to: 'watch' });

const COLLECT_CARDS: Step = { ...step('COLLECT_CARDS'), check: 'cards-collected' };
const BUTTON_STAYS: Step = { ...step('BUTTON_STAYS'), check: 'button-stays' };
const REDEAL = step('REDEAL');
const SHUFFLE_WITH_STUB = step('SHUFFLE_WITH_STUB');

/** MISDEAL and HAND_VOID: the hand stopped, its cards and bets back, the same hand dealt again. */
function replayTheHand(ruling: 'MISDEAL' | 'HAND_VOID'): Step[] {
  return [
    step('STOP_DEAL', { ruling }),
    COLLECT_CARDS,
    { ...step('RETURN_BETS', { ruling }), check: 'bets-returned' },
    BUTTON_STAYS,
    ...(ruling === 'HAND_VOID' ? [step('INSPECT_DECK')] : []),
    { ...step('RESHUFFLE', { ruling }), check: 'shuffler-verified' },
    REDEAL,
  ];
}

function moveButton(facts: IncidentFacts): Step[] {
  const steps: Step[] = [{ ...step('MOVE_BUTTON'), check: 'puck-moved' }];
  if (facts.incident !== 'BUTTON_MISPLACED') return steps;
  if (facts.headsUp) steps.push(step('HEADS_UP_DEAL'));
  else if (facts.deadButton) steps.push(step('DEAD_BUTTON'));
  return steps;
}

function giveReplacement(facts: IncidentFacts): Step {
  const toButton = (facts.incident === 'EXPOSED_CARD' || facts.incident === 'FLASHED_CARD') && facts.toButton;
  return { ...step('GIVE_REPLACEMENT', { toButton }), check: 'seat-has-two' };
}

function firstToBurn(facts: IncidentFacts): Step[] {
  const street = streetOf(facts);
  return [
    { ...step('FIRST_TO_BURN', { street }), check: 'card-to-burn' },
    step('COMPLETE_STREET', { street }),
  ];
}

function flopScramble(facts: IncidentFacts): Step[] {
  const { incident } = facts;
  const steps: Step[] = [
    CALL_THE_FLOOR,
    step('MIX_FACE_DOWN', { incident }),
    { ...step('DRAW_BURN_AND_FLOP', { incident }), check: 'card-to-burn' },
  ];
  // Two burns or four cards: the whole flop is drawn again; no burn: two of its cards stay.
  if (incident === 'FLOP_TWO_BURNS' || incident === 'FLOP_FOUR_CARDS') return steps;
  return [...steps, step('COMPLETE_STREET', { street: 'flop' })];
}

/**
 * A premature street taken back, its round finished and the street dealt again (without or with a burn),
 * the cards shuffled into the stub as `shuffle` says: the steps after the floor's call, where there is one.
 */
export function redealPremature(
  facts: IncidentFacts,
  withBurn: boolean,
  shuffle = SHUFFLE_WITH_STUB,
): Step[] {
  const street = streetOf(facts);
  const redeal = step('REDEAL_STREET', { street, withBurn });
  return [
    step('TAKE_BACK', { street, withBurn }),
    step('FINISH_BETTING', { round: 'open' }),
    shuffle,
    withBurn ? { ...redeal, check: 'card-to-burn' } : redeal,
  ];
}

/**
 * tda-2024 #35-D: a non-standard card found after substantial action is a scrap of paper, out of play
 * for the hand. What takes its place depends on where it lay (RULINGS-tda-2024.md A11): in a player's
 * hand the floor decides, so the floor is called first.
 */
function scrapCard(facts: IncidentFacts): Step[] {
  const zone = facts.incident === 'FOREIGN_CARD' ? facts.zone : undefined;
  return [
    ...(zone === 'seat' ? [CALL_THE_FLOOR] : []),
    step('SHOW_SCRAP'),
    { ...step('SET_APART'), check: 'card-lifted' },
    ...(zone === undefined ? [] : [step('REPLACE_SCRAP', { zone })]),
    { ...step('REMOVE_FROM_DECK'), check: 'shuffler-verified' },
  ];
}

function burnAndReplace(facts: IncidentFacts): Step[] {
  const street = streetOf(facts);
  const steps: Step[] = [
    { ...step('BURN_SEEN_CARD'), check: 'card-to-burn' },
    step('PLAYER_ACTS'),
    step('REPLACE_SEEN_CARD', { street }),
  ];
  return street === 'river' ? [...steps, step('STUB_MIXED')] : steps;
}

const PROCEDURES: Record<RulingCode, Procedure> = {
  MISDEAL: () => replayTheHand('MISDEAL'),
  HAND_VOID: () => replayTheHand('HAND_VOID'),
  DECK_REJECTED: (facts) => [
    step('DO_NOT_DEAL'),
    step('FIX_DECK', { incident: facts.incident }),
    { ...step('RESHUFFLE', { ruling: 'DECK_REJECTED' }), check: 'shuffler-verified' },
  ],
  MOVE_BUTTON: moveButton,
  CARD_LIVE: () => [step('CARD_STAYS'), step('ANNOUNCE_CARD'), step('FLOOR_MAY_PENALISE')],
  REPLACE_AT_END: (facts) => [
    step('SET_APART'),
    step('FINISH_DEAL'),
    giveReplacement(facts),
    step('ON_TOP_OF_STUB'),
    { ...step('BURN_FACE_DOWN'), check: 'card-to-burn' },
  ],
  BOXED_SET_ASIDE: () => [step('SHOW_BOXED'), step('SET_ASIDE'), step('CARRY_ON')],
  CONTINUE: (facts) => [step('CONTINUE', { incident: facts.incident })],
  GIVE_TOP_CARD: () => [{ ...step('GIVE_TOP_CARD'), check: 'seat-has-two' }],
  HAND_DEAD: () => [
    { ...step('HAND_DEAD'), check: 'hand-to-muck' },
    step('PLAY_ON', { ruling: 'HAND_DEAD' }),
  ],
  FIRST_TO_BURN: firstToBurn,
  FLOP_SECOND_BURN_TO_FLOP: () => [
    step('SECOND_BURN_TO_FLOP'),
    step('COMPLETE_STREET', { flopFromSecondBurn: true }),
    step('LAST_FLOP_CARD_TO_BURN'),
  ],
  FLOP_FOURTH_TO_BURN: () => [
    { ...step('FOURTH_TO_BURN'), check: 'card-to-burn' },
    step('TURN_WITHOUT_BURN'),
  ],
  FLOP_SCRAMBLE: flopScramble,
  PREMATURE_RESHUFFLE_NO_BURN: (facts) => [CALL_THE_FLOOR, ...redealPremature(facts, false)],
  PREMATURE_RESHUFFLE_WITH_BURN: (facts) => [CALL_THE_FLOOR, ...redealPremature(facts, true)],
  TURN_SET_ASIDE: () => [
    CALL_THE_FLOOR,
    step('SET_TURN_ASIDE'),
    step('FINISH_BETTING', { round: 'flop' }),
    { ...step('BURN_AND_DEAL_TURN'), check: 'card-to-burn' },
    step('SHUFFLE_SET_ASIDE'),
    step('RIVER_WITHOUT_BURN'),
  ],
  BURN_AND_REPLACE: burnAndReplace,
  SKIPPED_PLAYER_FOLDS: () => [
    { ...step('SKIPPED_PLAYER_FOLDS'), check: 'hand-to-muck' },
    step('PLAY_ON', { ruling: 'SKIPPED_PLAYER_FOLDS' }),
  ],
  REDEAL_BOARD: () => [step('REMOVE_WRONG_DECK'), step('REDEAL_BOARD')],
  SCRAP_CARD: scrapCard,
  // The seat antennas see both cards back on the winner's seat (the incident's seat).
  RETRIEVE_WINNING_HAND: () => [
    step('STOP_PLAY'),
    { ...step('RETRIEVE_WINNING_HAND'), check: 'seat-has-two' },
    step('AWARD_AS_SHOWN'),
  ],
  CALL_FLOOR: () => [
    step('STOP_PLAY'),
    step('CALL_FLOOR', { to: 'decide' }),
    step('SHOW_FACTS'),
    step('ENTER_DECISION'),
  ],
};

/** The ordered steps of a ruling (RULINGS.md "Rulings") shared by the profiles, worded for the facts at hand. */
export function procedure(ruling: RulingCode, facts: IncidentFacts): Step[] {
  return PROCEDURES[ruling](facts);
}

const PROMPT_STEPS: Record<Exclude<PromptCode, 'NEXT_HAND'>, Step[]> = {
  ALL_IN_SHOWDOWN: [step('HANDS_FACE_UP'), step('RUN_OUT_BOARD')],
  RETURN_UNCALLED: [step('RETURN_UNCALLED')],
  BUILD_SIDE_POTS: [step('BUILD_SIDE_POTS')],
  SHOW_ORDER: [step('SHOW_IN_ORDER')],
  SHOWDOWN_RANKING: [step('SPLIT_BY_RANKING')],
};

/** What the dealer does on a prompt (not an error: the hand goes on). */
export function promptProcedure(prompt: Exclude<PromptCode, 'NEXT_HAND'>): Step[] {
  return PROMPT_STEPS[prompt];
}

/** The hand `next-hand` started, as the dealer sets it up: the button, the blinds, the newcomers' posts. */
export interface HandSetUp {
  button: number;
  sb: number | null;
  bb: number;
  blinds: readonly [number, number];
  ante?: number;
  posted?: readonly number[];
}

export function nextHandProcedure(h: HandSetUp): Step[] {
  const steps = [step('PLACE_BUTTON', { seat: h.button }), step('POST_BLINDS', h)];
  if (h.ante) steps.push(step('POST_ANTES', { ante: h.ante }));
  for (const seat of h.posted ?? []) steps.push(step('NEWCOMER_POSTS', { seat, amount: h.blinds[1] }));
  return steps;
}
