import { html, nothing, type TemplateResult } from 'lit';
import type { PublicState } from '../../outputs/public.js';
import type { Language } from '../protocol.js';
import { t } from './messages.js';

type Showdown = NonNullable<PublicState['showdown']>;
type Pot = Showdown['pots'][number];
type Award = NonNullable<Pot['award']>;
type Tabled = NonNullable<PublicState['seats'][number]['tabled']>;

/** Where a seat stands in the show order: tabled, mucked, the one to show now, or still to come. */
type OrderMark = 'tabled' | 'mucked' | 'next' | 'waiting';

/**
 * The middle of the table at the showdown, under the board: who shows when (or every hand face up after
 * an all-in), then each pot with its amount and eligible seats and, once croupier has settled it, its
 * winners, their shares, the odd chip and the winning hand's name. Only what the public state says:
 * tabled hands, never a mucked one, and no winner before the award.
 */
export function showdownView(view: PublicState, showdown: Showdown, language: Language): TemplateResult {
  const tabled = new Map(view.seats.flatMap((seat) => (seat.tabled ? [[seat.seat, seat.tabled]] : [])));
  return html`<div class="showdown" data-testid="showdown">
    ${showdown.order ? order(view, showdown.order, language) : nothing}
    ${showdown.faceUp ? html`<p class="show-order" data-testid="face-up">${t(language, 'faceUp')}</p>` : nothing}
    ${showdown.ranking ? ranking(showdown.ranking, tabled, language) : nothing}
    <ol class="pots">${showdown.pots.map((pot) => potLine(pot, tabled, language))}</ol>
    ${showdown.pushed ? html`<p class="pushed" data-testid="pushed">${t(language, 'pushed')}</p>` : nothing}
  </div>`;
}

function order(view: PublicState, seats: readonly number[], language: Language): TemplateResult {
  const marks = orderMarks(view, seats);
  return html`<p class="show-order" data-testid="show-order" data-seats=${seats.join(',')}>
    <span class="label">${t(language, 'showOrder')}</span>
    ${seats.map(
      (seat, i) => html`<span
        class="order-seat order-${marks[i]}"
        data-testid="order-${seat}"
        data-mark=${marks[i] ?? 'waiting'}
        >${seat}${marks[i] === 'waiting' ? nothing : html` <small>${t(language, `order.${marks[i] as Exclude<OrderMark, 'waiting'>}`)}</small>`}</span
      >`,
    )}
  </p>`;
}

/** The first seat in the order that has neither tabled nor mucked is the one to show now. */
function orderMarks(view: PublicState, seats: readonly number[]): OrderMark[] {
  const bySeat = new Map(view.seats.map((seat) => [seat.seat, seat]));
  let next = false;
  return seats.map((n) => {
    const seat = bySeat.get(n);
    if (seat?.tabled) return 'tabled';
    if (seat?.status === 'mucked' || seat?.status === 'folded') return 'mucked';
    if (next) return 'waiting';
    next = true;
    return 'next';
  });
}

function ranking(tiers: readonly number[][], tabled: ReadonlyMap<number, Tabled>, language: Language) {
  return html`<p class="show-order" data-testid="ranking">
    <span class="label">${t(language, 'ranking')}</span>
    ${tiers.map((tier) => html`<span class="order-seat">${tier.join(' = ')} <small>${handOf(tier, tabled, language)}</small></span>`)}
  </p>`;
}

function potLine(pot: Pot, tabled: ReadonlyMap<number, Tabled>, language: Language): TemplateResult {
  const number = new Intl.NumberFormat(language);
  const name = pot.pot === 0 ? t(language, 'mainPot') : t(language, 'sidePot', { n: pot.pot });
  return html`<li
    class="pot-line ${pot.award ? 'awarded' : 'pending'}"
    data-testid="pot-${pot.pot}"
    data-amount=${pot.amount ?? ''}
    data-eligible=${pot.eligible.join(',')}
    data-winners=${pot.award?.winners.join(',') ?? ''}
  >
    <span class="pot-name">${name}</span>
    <strong class="pot-amount" data-testid="pot-${pot.pot}-amount">
      ${pot.amount === null ? t(language, 'amountUnknown') : number.format(pot.amount)}
    </strong>
    <span class="pot-eligible">${t(language, 'eligible', { seats: pot.eligible.join(', ') })}</span>
    ${pot.award ? award(pot.pot, pot.award, tabled, language) : html`<span class="pot-pending">${t(language, 'potPending')}</span>`}
  </li>`;
}

function award(
  pot: number,
  award: Award,
  tabled: ReadonlyMap<number, Tabled>,
  language: Language,
): TemplateResult {
  const number = new Intl.NumberFormat(language);
  const hand = handOf(award.winners, tabled, language);
  return html`<span class="pot-award">
    ${award.winners.map((seat) => {
      const share = award.shares?.[seat];
      const odd = award.odd?.[seat];
      return html`<span
        class="winner"
        data-testid="pot-${pot}-winner-${seat}"
        data-share=${share ?? ''}
        data-odd=${odd ?? ''}
        >${share === undefined ? t(language, 'winnerSeat', { n: seat }) : t(language, 'share', { n: seat, amount: number.format(share) })}${
          odd
            ? html` <span class="odd" data-testid="pot-${pot}-odd">${t(language, 'oddChip', { amount: number.format(odd) })}</span>`
            : nothing
        }</span
      >`;
    })}
    ${award.rake ? html`<span class="rake">${t(language, 'rake', { amount: number.format(award.rake) })}</span>` : nothing}
    <span class="winning-hand" data-testid="pot-${pot}-hand">${hand}</span>
  </span>`;
}

/** Tied winners hold hands of the same name: the first one's names it; a winner who never showed, none. */
function handOf(seats: readonly number[], tabled: ReadonlyMap<number, Tabled>, language: Language): string {
  const hand = seats.map((seat) => tabled.get(seat)?.hand).find((h) => h);
  if (hand) return hand.name[language];
  return seats.some((seat) => tabled.has(seat)) ? '' : t(language, 'notShown');
}
