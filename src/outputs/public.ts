import type { Observable } from 'rxjs';
import type { SnapshotFrom } from 'xstate';
import type { z } from 'zod';
import type { CardRef } from '../domain/cards.js';
import type { TableOutput } from '../rules/types.js';
import { phaseOf, type tableMachine } from '../table/machine.js';
import { levelAt, nextHand } from '../table/next-hand.js';
import type { CardInHand, Hand, TableContext } from '../table/state.js';
import type {
  publicCard,
  publicIncident,
  publicOutputSchema,
  publicStateSchema,
  tableExtras,
} from './public-schema.js';
import { muckedSeats, showdownView, tabledHands } from './showdown.js';

/**
 * What anyone may see of the table: the display, public MQTT topics, info logs. Hole cards are counted,
 * never named (DESIGN.md "Security rules"): a card that is face down on a seat has neither face nor UID
 * here, since a tag UID names the card to whoever holds the deck list. A seat's hand becomes public
 * when the seat tables it (`dealer: shown`), and only then (RULINGS.md "Privacy").
 */

export type PublicCard = z.infer<typeof publicCard>;
export type PublicIncident = z.infer<typeof publicIncident>;
export type PublicOutput = z.infer<typeof publicOutputSchema>;
export type PublicState = z.infer<typeof publicStateSchema>;
/** What the controller adds to the machine's state: profile, dealer, the open call's age and answer, devices. */
export type TableExtras = z.infer<typeof tableExtras>;

/** Where the outputs read the extras of a state from, and hear that they changed between two events. */
export interface TableExtrasSource {
  of(state: PublicState): TableExtras;
  /** A sign-in, an answer, a device's health: the state is said again with them. */
  changed: Observable<unknown>;
}
type PublicSeat = PublicState['seats'][number];

/** A card face up, or named by a ruling. */
const shown = (card: CardRef): Extract<PublicCard, { uid: string }> => ({
  face: card.face,
  deck: card.deck,
  uid: card.uid,
});

export function publicOutput(output: TableOutput): PublicOutput {
  if (output.kind !== 'incident') return output; // prompts and awards name no hole card
  const { cards, secret, ...rest } = output;
  const hidden = new Set(secret);
  return { ...rest, cards: cards.map((card) => (hidden.has(card.uid) ? { hidden: true } : shown(card))) };
}

export function publicState(snapshot: SnapshotFrom<typeof tableMachine>): PublicState {
  const context: TableContext = snapshot.context;
  const hand = context.hand;
  const phase = phaseOf(context);
  const open = context.open[0];
  return {
    phase,
    betweenHands: snapshot.hasTag('between-hands'),
    street: hand && (phase === 'betting' || phase === 'showdown') ? hand.betting.street : null,
    hand: hand?.no ?? null,
    button: hand?.button ?? context.puck,
    blinds: hand ? { sb: hand.sb, bb: hand.bb } : null,
    seats: hand ? seatsOf(hand) : [],
    board: cardsIn(hand, 'board'),
    burn: cardsIn(hand, 'burn'),
    dead: cardsIn(hand, 'dead'),
    pot: hand?.pot ?? 0,
    showdown: hand ? showdownView(context, hand) : null,
    incident: open ? { ...(publicOutput(open.report) as PublicIncident), step: open.step } : null,
    seating: Object.entries(context.seating).map(([seat, seated]) => ({ seat: Number(seat), ...seated })),
    level: levelAt(context, context.clock),
    nextHand: snapshot.hasTag('between-hands') ? nextHand(context, context.clock) : null,
  };
}

/**
 * What names the open incident or the dealer's call in a public state, so that an answer reaches the
 * call it was given to and no later one: `<hand>:<at>` for an incident, `<hand>:floor` for the dealer's
 * call; null when nothing is open.
 */
export function callKey(state: Pick<PublicState, 'hand' | 'phase' | 'incident'>): string | null {
  if (state.incident) return `${state.hand ?? 0}:${state.incident.at}`;
  return state.phase === 'floor' ? `${state.hand ?? 0}:floor` : null;
}

function seatsOf(hand: Hand): PublicSeat[] {
  const tabled = tabledHands(hand, shown);
  const mucked = muckedSeats(hand);
  return hand.players.map((seat) => {
    const shownHand = tabled.get(seat);
    const holes = hand.holes[seat] ?? [];
    const faceUp = holes.flatMap((uid) => (hand.cards[uid]?.faceUp ? [shown(hand.cards[uid].ref)] : []));
    return {
      seat,
      cards: holes.length,
      status: statusOf(hand, seat, mucked),
      ...(shownHand ? { tabled: shownHand } : faceUp.length > 0 && { faceUp }),
    };
  });
}

function statusOf(hand: Hand, seat: number, mucked: ReadonlySet<number>): PublicSeat['status'] {
  if (hand.betting.folded.includes(seat)) return 'folded';
  if (mucked.has(seat)) return 'mucked';
  return hand.betting.allIn.includes(seat) ? 'all-in' : 'in-hand';
}

function cardsIn(hand: Hand | null, role: CardInHand['role']): PublicCard[] {
  if (!hand) return [];
  return Object.values(hand.cards)
    .filter((card) => card.role === role)
    .sort((a, b) => a.seq - b.seq)
    .map((card) => shown(card.ref));
}
