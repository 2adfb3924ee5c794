import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import type { Face } from '../../../src/domain/cards.js';
import type { DomainEvent, Unsequenced } from '../../../src/domain/events.js';
import type { Zone } from '../../../src/domain/zones.js';
import { parseScenarioText } from '../../../src/scenario/load.js';
import { tableMachine } from '../../../src/table/machine.js';
import { readyDeck } from '../../deck-reports.js';

/**
 * A table fed the first `count` events of a corpus scenario (one that raises an incident among them),
 * for the test to go on with: the open procedure's current step, the dealer's confirm, cards by face.
 * Each event is followed by the end of its reordering window, so a read is judged before the next.
 */
async function tableAfter(name: string, count: number) {
  const file = new URL(`../../scenarios/${name}`, import.meta.url);
  const scenario = parseScenarioText(await readFile(file, 'utf8'), file.pathname);
  const actor = createActor(tableMachine, { input: scenario.config });
  actor.start();
  const events = scenario.events.slice(0, count);
  const settled = (last: DomainEvent) => actor.send({ type: 'settle', t: last.t + 1000, seq: last.seq });
  for (const event of events) actor.send(event);
  if (events[0]) settled(events.at(-1) ?? events[0]);
  let seq = events.length;
  let t = (events.at(-1)?.t ?? 0) + 10_000;
  const send = (event: Unsequenced<DomainEvent>) => {
    t += 2000;
    const sequenced = { ...event, seq: seq++, t } as DomainEvent;
    actor.send(sequenced);
    settled(sequenced);
  };
  const open = () => actor.getSnapshot().context.open[0];
  const current = () => {
    const first = open();
    return first?.report.steps[first.step]?.code;
  };
  const confirm = () => send({ type: 'dealer', t: 0, input: 'confirm' });
  const card = (face: Face) => scenario.registry.lookup(scenario.registry.uidOf('A', face) as string);
  /** Deck A's card `face` read in `zone`, or lifted off it. */
  const seen = (zone: Zone, face: Face) => send({ type: 'card.seen', t: 0, zone, ...card(face) });
  const gone = (zone: Zone, face: Face) => send({ type: 'card.gone', t: 0, zone, ...card(face) });
  /** The scenario's events from `from` up to `to`, after what the test sent. */
  const play = (from: number, to: number) => {
    for (const event of scenario.events.slice(from, to)) send(event);
  };
  return { send, open, current, confirm, card, seen, gone, play };
}

/** The dealer exposed the second card of the deal: a misdeal, whose procedure the sensors partly see. */
const misdeal = () => tableAfter('main-event-2014/exposed-card-dealer-card-2.yaml', 4);

const READY_52 = readyDeck('A');

describe('procedure steps the sensors see', () => {
  it('tick themselves: the button read where it stays, the deck verified at 52 (even before its step)', async () => {
    const table = await misdeal();
    expect(table.open()?.report.steps.map((step) => step.check ?? null)).toEqual([
      null,
      'cards-collected',
      'bets-returned',
      'button-stays',
      'shuffler-verified',
      null,
    ]);
    table.send(READY_52);
    for (let i = 0; i < 3; i++) table.confirm();
    expect(table.current()).toBe('BUTTON_STAYS');
    table.send({ type: 'button', t: 0, seat: 3 });
    expect(table.current()).toBe('BUTTON_STAYS');
    table.send({ type: 'button', t: 0, seat: 9 });
    // The button seen in place, and the deck already verified: on to the redeal, which the dealer confirms.
    expect(table.current()).toBe('REDEAL');
    table.confirm();
    expect(table.open()).toBeUndefined();
  });

  it('do not tick for what the sensors do not show: a deck one card short, another deck, a card face up, a deck not counted', async () => {
    const table = await misdeal();
    table.send({ ...READY_52, count: 51 });
    table.send({ ...READY_52, deck: 'B' });
    table.send({ ...READY_52, faceUp: [table.card('2c')] });
    table.send({ ...READY_52, count: undefined }); // ready, but not counted
    for (let i = 0; i < 4; i++) table.confirm();
    expect(table.current()).toBe('RESHUFFLE');
    table.send(READY_52);
    expect(table.current()).toBe('REDEAL');
  });

  it('tick themselves: every card lifted or mucked, then every bet zone and the pot read empty', async () => {
    const table = await misdeal();
    table.send({ type: 'chips', t: 0, zone: 'bet:1', amount: 50 });
    table.send({ type: 'chips', t: 0, zone: 'bet:2', amount: 100 });
    // The dealer's float stays in the tray: it is no bet to return.
    table.send({ type: 'chips', t: 0, zone: 'tray', amount: 25_000 });
    table.confirm();
    expect(table.current()).toBe('COLLECT_CARDS');
    // Lifted and put back down: not collected after all.
    table.gone('seat:2', '9s');
    table.seen('seat:2', '9s');
    table.gone('seat:1', 'Kh');
    expect(table.current()).toBe('COLLECT_CARDS');
    table.seen('muck', '9s');
    expect(table.current()).toBe('RETURN_BETS');
    table.send({ type: 'chips', t: 0, zone: 'bet:1', amount: 0 });
    table.send({ type: 'chips', t: 0, zone: 'bet:2', amount: 100 });
    expect(table.current()).toBe('RETURN_BETS');
    table.send({ type: 'chips', t: 0, zone: 'bet:2', amount: 0 });
    expect(table.current()).toBe('BUTTON_STAYS');
  });

  it('tick themselves: the puck read on the button it was to move to, not on another wrong seat', async () => {
    // The puck on seat 1 before the first card, the button is seat 9: MOVE_BUTTON.
    const table = await tableAfter('main-event-2014/button-misplaced.yaml', 2);
    table.send({ type: 'button', t: 0, seat: 2 });
    expect(table.current()).toBe('MOVE_BUTTON');
    table.send({ type: 'button', t: 0, seat: 9 });
    expect(table.open()).toBeUndefined();
  });

  it('tick themselves: the named card reaching the burn, not put back on the board nor another card burned', async () => {
    // french-casino FIRST_TO_BURN: the first flop card, 3s, dealt without a burn, becomes it.
    const table = await tableAfter('french-casino/flop-no-burn.yaml', 17);
    expect(table.current()).toBe('FIRST_TO_BURN');
    table.gone('board', '3s');
    table.seen('board', '3s');
    expect(table.current()).toBe('FIRST_TO_BURN');
    table.seen('burn', 'Jh');
    expect(table.current()).toBe('FIRST_TO_BURN');
    table.seen('burn', '3s');
    expect(table.current()).toBe('COMPLETE_STREET');
  });

  it('tick themselves: a second card on the seat short of one, not its one card read again', async () => {
    // french-casino GIVE_TOP_CARD: the button, seat 5, has one card when the dealer says the deal is done.
    const table = await tableAfter('french-casino/missing-card-button.yaml', 11);
    expect(table.current()).toBe('GIVE_TOP_CARD');
    table.gone('seat:5', '4s');
    table.seen('seat:5', '4s');
    expect(table.current()).toBe('GIVE_TOP_CARD');
    table.seen('seat:5', '9h');
    expect(table.open()).toBeUndefined();
  });

  it('do not tick for the cards of another seat reaching the muck while a hand is dead', async () => {
    // french-casino HAND_DEAD: a third card to the button, seat 5, after two players put chips in.
    const table = await tableAfter('french-casino/extra-card-after-two-bets-hand-dead.yaml', 14);
    expect(table.current()).toBe('HAND_DEAD');
    table.send({ type: 'action', t: 0, seat: 1, act: 'fold' });
    table.seen('muck', 'Jd');
    expect(table.current()).toBe('HAND_DEAD');
  });

  it('tick themselves: the card the incident names lifted off its zone, not another card lifted', async () => {
    // tda-2024 SCRAP_CARD: the joker turned as the turn card, after substantial action.
    const table = await tableAfter('tda-2024/foreign-card-joker-turn.yaml', 27);
    table.confirm();
    expect(table.current()).toBe('SET_APART');
    table.gone('board', '7c');
    table.seen('board', '7c');
    expect(table.current()).toBe('SET_APART');
    const joker = table.open()?.report.cards[0];
    if (joker === undefined) throw new Error('SCRAP_CARD names the joker');
    table.send({ type: 'card.gone', t: 0, zone: 'board', ...joker });
    expect(table.current()).toBe('REPLACE_SCRAP');
  });

  // EXTRA_CARD names no card: the dead hand is the cards its seat was served.
  it('tick themselves: the dead hand’s cards reaching the muck', async () => {
    const table = await tableAfter('french-casino/extra-card-after-two-bets-hand-dead.yaml', 14);
    for (const face of ['Js', '3d'] as const) {
      table.seen('muck', face);
    }
    expect(table.current()).toBe('HAND_DEAD');
    table.seen('muck', '6s');
    expect(table.current()).toBe('PLAY_ON');
  });

  it('keep what the sensors showed once, however often they show it (the shuffler repeats its status)', async () => {
    const table = await misdeal();
    for (let i = 0; i < 3; i++) table.send(READY_52);
    expect(table.open()?.seen).toEqual(['shuffler-verified']);
  });

  it('keep a card lifted while another is put back down', async () => {
    // main-event-2014 EXTRA_CARD in the deal, a 13th card to seat 1: MISDEAL.
    const table = await tableAfter('main-event-2014/extra-card-deal.yaml', 14);
    table.confirm();
    expect(table.current()).toBe('COLLECT_CARDS');
    table.gone('seat:1', '8h');
    table.gone('seat:2', '7d');
    table.seen('seat:2', '7d');
    for (const face of ['7d', '2h', '2d', 'Th', '6h', 'Js', '9h', 'Ah', '3h', 'Tc', 'As'] as const) {
      expect(table.current()).toBe('COLLECT_CARDS');
      table.seen('muck', face);
    }
    expect(table.current()).toBe('COLLECT_CARDS'); // seat 1's third card, Ts, still lies on its seat
    table.gone('seat:1', 'Ts');
    expect(table.current()).toBe('RETURN_BETS');
  });

  it('count the cards mucked before the incident as collected: the hands folded before it', async () => {
    // main-event-2014 FOREIGN_CARD at the turn: HAND_VOID. Seats 5 and 9 folded before the flop.
    const table = await tableAfter('main-event-2014/foreign-card-turn.yaml', 17);
    for (const face of ['9s', 'Jd', 'Kc', 'Jc'] as const) {
      table.seen('muck', face);
    }
    table.play(17, 30);
    const joker = table.open()?.report.cards[0];
    if (joker === undefined) throw new Error('FOREIGN_CARD names the joker');
    table.confirm();
    expect(table.current()).toBe('COLLECT_CARDS');
    table.send({ type: 'card.gone', t: 0, zone: 'board', ...joker });
    const onTable = {
      'seat:1': ['7s', '4s'],
      'seat:2': ['Kd', '2d'],
      'seat:3': ['Qc', '7h'],
      'seat:6': ['9h', '6d'],
      burn: ['Ad', '8d'],
      board: ['3c', '5c', '8c'],
    } as const;
    for (const [zone, faces] of Object.entries(onTable)) {
      for (const face of faces) {
        expect(table.current()).toBe('COLLECT_CARDS');
        table.gone(zone as Zone, face);
      }
    }
    expect(table.current()).toBe('RETURN_BETS');
  });

  it('wait for the replacement itself: the seat’s second card of the deal is not it', async () => {
    // main-event-2014 REPLACE_AT_END: seat 6's first card exposed and set apart; Th, its second card of
    // the deal, leaves it one live card until the replacement, 8h.
    const table = await tableAfter('procedures/me-replace-at-end-steps.yaml', 17);
    expect(table.current()).toBe('GIVE_REPLACEMENT');
    table.play(17, 18);
    expect(table.current()).toBe('ON_TOP_OF_STUB');
  });

  it('do not tick the bets returned on the tray alone, with no bet zone ever read', async () => {
    const table = await misdeal();
    table.confirm();
    table.seen('muck', '9s');
    table.seen('muck', 'Kh');
    expect(table.current()).toBe('RETURN_BETS');
    table.send({ type: 'chips', t: 0, zone: 'tray', amount: 0 });
    expect(table.current()).toBe('RETURN_BETS');
  });

  it('follow a deck refused between hands through stray reads and the puck, with no hand to look at', async () => {
    // DECK_COUNT before the hand: the shuffler counts 51 (DECK_REJECTED, its deck re-verified at 52).
    const table = await tableAfter('main-event-2014/deck-count-short.yaml', 1);
    expect(table.current()).toBe('DO_NOT_DEAL');
    table.seen('seat:1', '4h');
    table.gone('seat:1', '4h');
    table.send({ type: 'button', t: 0, seat: 9 });
    expect(table.current()).toBe('DO_NOT_DEAL');
    table.confirm();
    table.confirm();
    expect(table.current()).toBe('RESHUFFLE');
    table.send(READY_52);
    expect(table.open()).toBeUndefined();
  });

  it('tick themselves: the skipped player’s cards reaching the muck, not the premature card the incident names', async () => {
    // french-casino SKIPPED_PLAYER_FOLDS: seat 4 (5d 9s) passed over, the flop's 4s out; 4s stays on the board.
    const table = await tableAfter('french-casino/premature-flop-acted-after-skipped.yaml', 17);
    expect(table.open()?.report.cards.map((c) => c.face)).toEqual(['4s']);
    expect(table.current()).toBe('SKIPPED_PLAYER_FOLDS');
    table.seen('muck', '5d');
    expect(table.current()).toBe('SKIPPED_PLAYER_FOLDS');
    table.seen('muck', '9s');
    expect(table.current()).toBe('PLAY_ON');
  });
});
