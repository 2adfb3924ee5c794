import type { DomainEvent } from '../domain/events.js';
import type { StepCheck } from '../rules/types.js';
import { deckFault } from './deck.js';
import type { Draft } from './draft.js';
import type { Hand, OpenIncident } from './state.js';

/**
 * Procedure steps the sensors can see done tick themselves: each event adds what it shows to every open
 * incident, and the first incident's current step goes on while the sensors have shown it. Steps they
 * cannot see (and those whose sensing is not built yet: cards collected, bets returned) wait for the
 * dealer's confirm. What is shown before a step is reached counts when it is reached (the shuffler may
 * verify the deck before the dealer has confirmed that the button stays).
 */
export function tickSensorSteps(d: Draft, event: DomainEvent): void {
  if (d.ctx.open.length === 0) return;
  d.ctx.open = d.ctx.open.map((open) => {
    const shown = shownBy(event, open, d.hand).filter((check) => !open.seen.includes(check));
    return shown.length === 0 ? open : { ...open, seen: [...open.seen, ...shown] };
  });
  for (;;) {
    const first = d.ctx.open[0];
    const check = first?.report.steps[first.step]?.check;
    if (!first || check === undefined || !first.seen.includes(check)) return;
    advance(d);
  }
}

/** The dealer (or the sensors) did the first open incident's current step: on to the next, or closed. */
export function advance(d: Draft): void {
  const first = d.ctx.open[0];
  if (!first) return;
  const step = first.step + 1;
  d.ctx.open[0] = { ...first, step };
  if (step >= first.report.steps.length) d.ctx.open.shift();
}

function shownBy(event: DomainEvent, open: OpenIncident, hand: Hand | null): StepCheck[] {
  const named = (uid: string) => open.report.cards.some((card) => card.uid === uid);
  switch (event.type) {
    case 'shuffler':
      // A deck counted 52, clean, ready: the one the hand deals from, when a hand knows it.
      return event.state === 'ready' &&
        event.count === 52 &&
        deckFault(event) === null &&
        (hand?.deck == null || event.deck === hand.deck)
        ? ['shuffler-verified']
        : [];
    case 'button':
      return hand !== null && event.seat === hand.button ? ['button-stays', 'puck-moved'] : [];
    case 'card.seen':
      if (event.zone === 'burn' && named(event.uid)) return ['card-to-burn'];
      if (event.zone === 'muck' && named(event.uid)) return ['card-to-muck'];
      return seatsHaveTwo(open, hand) ? ['seat-has-two'] : [];
    default:
      return seatsHaveTwo(open, hand) ? ['seat-has-two'] : [];
  }
}

/** Every seat the incident names holds two hole cards, one of them come since the incident. */
function seatsHaveTwo(open: OpenIncident, hand: Hand | null): boolean {
  if (!hand || open.report.seats.length === 0) return false;
  return open.report.seats.every((seat) => {
    const holes = hand.holes[seat] ?? [];
    return holes.length >= 2 && holes.some((uid) => (hand.cards[uid]?.seq ?? -1) > open.report.at);
  });
}
