import type { DomainEvent } from '../domain/events.js';
import type { StepCheck } from '../rules/types.js';
import { deckFault } from './deck.js';
import type { Draft } from './draft.js';
import type { Hand, OpenIncident } from './state.js';

/**
 * Procedure steps the sensors can see done tick themselves: each event adds what it shows to every open
 * incident, and the first incident's current step goes on while the sensors have shown it. Steps they
 * cannot see (or that a table without the sensor cannot: bets returned without chip sensors) wait for
 * the dealer's confirm. What is shown before a step is reached counts when it is reached (the shuffler may
 * verify the deck before the dealer has confirmed that the button stays).
 */
export function tickSensorSteps(d: Draft, event: DomainEvent): void {
  if (d.ctx.open.length === 0) return;
  d.ctx.open = d.ctx.open.map((before) => {
    const open = collecting(event, before, d.hand);
    const shown = shownBy(event, open, d.ctx).filter((check) => !open.seen.includes(check));
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
  const rest = d.ctx.open.slice(1);
  d.ctx.open = step >= first.report.steps.length ? rest : [{ ...first, step }, ...rest];
}

/** The cards the dealer has lifted or mucked since the incident; one put back down is not collected. */
function collecting(event: DomainEvent, open: OpenIncident, hand: Hand | null): OpenIncident {
  if ((event.type !== 'card.gone' && event.type !== 'card.seen') || !hand?.cards[event.uid]) return open;
  const away = event.type === 'card.gone' || event.zone === 'muck';
  if (away === open.away.includes(event.uid)) return open;
  return { ...open, away: away ? [...open.away, event.uid] : open.away.filter((uid) => uid !== event.uid) };
}

function shownBy(event: DomainEvent, open: OpenIncident, ctx: Draft['ctx']): StepCheck[] {
  const hand = ctx.hand;
  // Checks of the state rather than of the event, looked at while a step of the procedure waits for them.
  const awaits = (check: StepCheck) =>
    !open.seen.includes(check) && open.report.steps.some((step) => step.check === check);
  const always = [
    ...(awaits('seat-has-two') && seatsHaveTwo(open, hand) ? (['seat-has-two'] as const) : []),
    ...(awaits('cards-collected') && cardsCollected(open, hand) ? (['cards-collected'] as const) : []),
    ...(awaits('card-lifted') && cardsLifted(open) ? (['card-lifted'] as const) : []),
    ...(awaits('hand-to-muck') && handMucked(open, hand) ? (['hand-to-muck'] as const) : []),
  ];
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
    case 'chips':
      return betsReturned(ctx.chips) ? ['bets-returned', ...always] : always;
    case 'card.seen':
      if (event.zone === 'burn' && named(event.uid)) return ['card-to-burn', ...always];
      return always;
    default:
      return always;
  }
}

/** Every card of the hand is off the table's spots: lifted since the incident, or in the muck. */
function cardsCollected(open: OpenIncident, hand: Hand | null): boolean {
  const cards = Object.entries(hand?.cards ?? {});
  return cards.length > 0 && cards.every(([uid, card]) => card.zone === 'muck' || open.away.includes(uid));
}

/** Every card the incident names is off the spot it lay in: lifted since the incident, or in the muck. */
function cardsLifted(open: OpenIncident): boolean {
  return open.report.cards.length > 0 && open.report.cards.every((card) => open.away.includes(card.uid));
}

/**
 * Every card served to the incident's seats is in the muck: the hand its ruling kills (a dead hand, a
 * skipped player's fold), whatever card the incident names (a premature street's names the board card).
 */
function handMucked(open: OpenIncident, hand: Hand | null): boolean {
  const served = Object.values(hand?.cards ?? {}).filter(
    (card) => card.seat !== null && open.report.seats.includes(card.seat),
  );
  return served.length > 0 && served.every((card) => card.zone === 'muck');
}

/** The chip sensors read nothing left in front of a player nor in the pot. */
function betsReturned(chips: Draft['ctx']['chips']): boolean {
  const onTable = Object.entries(chips).filter(([zone]) => zone !== 'tray');
  return onTable.length > 0 && onTable.every(([, amount]) => amount === 0);
}

/** Every seat the incident names holds two hole cards, one of them come since the incident. */
function seatsHaveTwo(open: OpenIncident, hand: Hand | null): boolean {
  if (!hand || open.report.seats.length === 0) return false;
  return open.report.seats.every((seat) => {
    const holes = hand.holes[seat] ?? [];
    return holes.length >= 2 && holes.some((uid) => (hand.cards[uid]?.seq ?? -1) > open.report.at);
  });
}
