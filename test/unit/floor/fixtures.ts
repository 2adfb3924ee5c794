import type { PublicIncident, PublicState } from '../../../src/outputs/public.js';

/** A table's public state between hands, as croupier publishes it; `patch` changes what a test needs. */
export function stateOf(patch: Partial<PublicState> = {}): PublicState {
  return {
    phase: 'idle',
    betweenHands: true,
    street: null,
    hand: null,
    button: null,
    blinds: null,
    seats: [],
    board: [],
    burn: [],
    dead: [],
    pot: 0,
    showdown: null,
    incident: null,
    seating: [],
    level: { blinds: [50, 100], ante: 0 },
    nextHand: null,
    ...patch,
  };
}

/** An exposed card's misdeal, as the incident topic carries it. */
export function misdeal(at: number, patch: Partial<PublicIncident> = {}): PublicIncident {
  return {
    kind: 'incident',
    at,
    incident: 'EXPOSED_CARD',
    ruling: 'MISDEAL',
    seats: [2],
    cards: [{ face: 'Kd', deck: 'A', uid: '32C7010B' }],
    rule: 'main-event-2014 §III.e',
    floor: false,
    steps: [
      { code: 'STOP_DEAL', text: { fr: 'Arrêtez la donne', en: 'Stop the deal' } },
      { code: 'COLLECT_CARDS', text: { fr: 'Ramassez les cartes', en: 'Collect the cards' } },
    ],
    ...patch,
  };
}

/** A state with `incident` open at its step `step`, in hand `hand`. */
export function withIncident(hand: number, incident: PublicIncident, step = 0): PublicState {
  return stateOf({ phase: 'void', hand, incident: { ...incident, step } });
}

export const json = (value: unknown) => Buffer.from(JSON.stringify(value));
