import { describe, expect, it } from 'vitest';
import type { DomainEvent, Unsequenced } from '../../../src/domain/events.js';
import type { SeatStatus } from '../../../src/domain/seats.js';
import { PROFILES, type ProfileId } from '../../../src/rules/index.js';
import type { PromptReport } from '../../../src/rules/types.js';
import { startTable, step } from '../../../src/table/machine.js';
import { nextHand } from '../../../src/table/next-hand.js';
import type { TableConfig } from '../../../src/table/reduce.js';
import type { TableContext } from '../../../src/table/state.js';

/** A table of `seats` seats with `seated` marked in, under `profile`. */
function table(profile: ProfileId, seated: number[], extra: Partial<TableConfig> = {}, seats = 10) {
  let table = startTable({ seats, profile: PROFILES[profile], decks: ['A', 'B'], ...extra });
  let seq = 0;
  const send = (event: Unsequenced<DomainEvent>): PromptReport | undefined => {
    table = step(table, { ...event, seq: seq++ } as DomainEvent);
    return table.context.outputs.find(
      (o): o is PromptReport => o.kind === 'prompt' && o.prompt === 'NEXT_HAND',
    );
  };
  const mark = (seat: number, status: SeatStatus, t = 0) => send({ type: 'seat', t, seat, status });
  for (const seat of seated) mark(seat, 'in');
  const next = (t = 0) => send({ type: 'dealer', t, input: 'next-hand' });
  const end = (t = 0) => send({ type: 'dealer', t, input: 'hand-end' });
  return { send, mark, next, end, ctx: (): TableContext => table.context };
}

/** button / sb / bb / players of a prompt. */
const seen = (p: PromptReport | undefined) => p && [p.button, p.sb, p.bb, p.players];

describe('next-hand: who is dealt in', () => {
  it('a 6-player night at a 10-seat table deals the six, button on the lowest seat', () => {
    const t = table('main-event-2014', [2, 3, 5, 7, 8, 10]);
    const p = t.next();
    expect(seen(p)).toEqual([2, 3, 5, [2, 3, 5, 7, 8, 10]]);
    expect(p).toMatchObject({ blinds: [50, 100], deck: 'A', rule: 'main-event-2014 §II.i' });
    expect(t.ctx().hand?.players).toEqual([2, 3, 5, 7, 8, 10]);
  });

  it('the button where the puck lies on a player for the first hand', () => {
    const t = table('tda-2007', [1, 4, 6]);
    t.send({ type: 'button', t: 0, seat: 4 });
    expect(seen(t.next())).toEqual([4, 6, 1, [1, 4, 6]]);
  });

  it('absent players are dealt in; out seats are not', () => {
    const t = table('main-event-2014', [1, 2, 3, 4]);
    t.mark(2, 'absent');
    t.mark(3, 'out');
    expect(t.next()?.players).toEqual([1, 2, 4]);
  });

  it('a seat keeps its name when marked again without one; an empty name clears it', () => {
    const t = table('main-event-2014', []);
    t.send({ type: 'seat', t: 0, seat: 5, status: 'in', name: 'Zoé' });
    t.mark(5, 'absent');
    expect(t.ctx().seating[5]).toEqual({ status: 'absent', name: 'Zoé' });
    t.send({ type: 'seat', t: 0, seat: 5, status: 'in', name: '' });
    expect(t.ctx().seating[5]).toEqual({ status: 'in' });
  });

  it('fewer than two players seated starts nothing', () => {
    const t = table('main-event-2014', [4]);
    expect(t.next()).toBeUndefined();
    expect(t.ctx().hand).toBeNull();
  });

  it('french-casino: a newcomer between the button and the small blind waits; elsewhere he posts the big blind', () => {
    const t = table('french-casino', [1, 3, 5, 7]);
    t.next(); // button 1, sb 3, bb 5
    t.end();
    t.mark(4, 'waiting'); // next: button 3, sb 5: seat 4 sits between them
    t.mark(9, 'waiting');
    const p = t.next();
    expect(seen(p)).toEqual([3, 5, 7, [1, 3, 5, 7, 9]]);
    expect(p?.posted).toEqual([9]);
    expect(p?.rule).toBe('french-casino (no written rule)');
    expect(t.ctx().hand?.betting.bets[9]).toBe(100);
    expect(t.ctx().seating[4]?.status).toBe('waiting');
    expect(t.ctx().seating[9]?.status).toBe('in');
  });
});

describe('next-hand: the dead button (tournament profiles)', () => {
  it('the big blind moves on one player; a busted big blind leaves no small blind next hand', () => {
    const t = table('main-event-2014', [1, 2, 3, 4, 5]);
    expect(seen(t.next())).toEqual([1, 2, 3, [1, 2, 3, 4, 5]]);
    t.end();
    t.mark(3, 'out'); // the big blind busts
    expect(seen(t.next())).toEqual([2, null, 4, [1, 2, 4, 5]]);
    t.end();
    // After the hand with no small blind, the button lands on the seat the big blind left: dead.
    expect(seen(t.next())).toEqual([3, 4, 5, [1, 2, 4, 5]]);
    t.end();
    expect(seen(t.next())).toEqual([4, 5, 1, [1, 2, 4, 5]]);
  });

  it('a busted small blind: the button is that seat, dead, and the big blind moves on', () => {
    const t = table('tda-2007', [1, 2, 3, 4]);
    t.next(); // 1, 2, 3
    t.end();
    t.mark(2, 'out');
    const p = t.next();
    expect(seen(p)).toEqual([2, 3, 4, [1, 3, 4]]);
    expect(p?.rule).toBe('tda-2007 #6');
  });

  it('three to two: nobody is big blind twice in a row, the button posts the small blind', () => {
    const t = table('main-event-2014', [2, 5, 8]);
    t.next(); // button 2, sb 5, bb 8
    t.end();
    t.mark(2, 'out');
    const p = t.next();
    expect(seen(p)).toEqual([8, 8, 5, [5, 8]]);
    expect(p?.rule).toBe('main-event-2014 §II.j');
    t.end();
    expect(seen(t.next())).toEqual([5, 5, 8, [5, 8]]);
  });

  it('three to two with the big blind busted: the former button takes the big blind', () => {
    const t = table('tda-2007', [2, 5, 8]);
    t.next(); // button 2, sb 5, bb 8
    t.end();
    t.mark(8, 'out');
    expect(seen(t.next())).toEqual([5, 5, 2, [2, 5]]);
  });
});

describe('next-hand: the moving button (french-casino, no written rule)', () => {
  it('moves to the next player, the next two post', () => {
    const t = table('french-casino', [1, 3, 5, 7]);
    t.next();
    t.end();
    t.mark(5, 'out');
    expect(seen(t.next())).toEqual([3, 7, 1, [1, 3, 7]]);
  });
});

describe('next-hand: the redeal and the levels', () => {
  it('the redeal after a misdeal is the same hand again', () => {
    const t = table('main-event-2014', [1, 2, 3]);
    t.next();
    t.send({ type: 'card.seen', t: 100, zone: 'seat:6', uid: 'x', face: 'As', deck: 'A' });
    t.send({ type: 'settle', t: 1000 });
    expect(t.ctx().phase).toBe('void');
    expect(seen(t.next(2000))).toEqual([1, 2, 3, [1, 2, 3]]);
  });

  it('a level that changes during a hand applies from the next hand', () => {
    const levels = [
      { blinds: [50, 100] as [number, number], ante: 0, minutes: 20 },
      { blinds: [100, 200] as [number, number], ante: 25, minutes: 20 },
    ];
    const t = table('main-event-2014', [1, 2, 3], { levels });
    expect(t.next(0)?.blinds).toEqual([50, 100]);
    expect(t.ctx().hand?.blinds).toEqual([50, 100]); // the level moves on at 20 min: the hand keeps its own
    t.end(21 * 60_000);
    const p = t.next(21 * 60_000);
    expect(p).toMatchObject({ blinds: [100, 200], ante: 25 });
    t.end();
    expect(t.next(90 * 60_000)?.blinds).toEqual([100, 200]); // past the schedule: the last level holds
  });

  it("the tournament clock's level holds over the schedule, from the next hand", () => {
    const levels = [{ blinds: [50, 100] as [number, number], ante: 0, minutes: 20 }];
    const t = table('tda-2007', [1, 2, 3], { levels });
    t.next(0);
    t.send({ type: 'dealer', t: 1000, input: 'level', value: '200/400/50' });
    expect(t.ctx().hand?.blinds).toEqual([50, 100]);
    t.end(2000);
    expect(t.next(3000)).toMatchObject({ blinds: [200, 400], ante: 50 });
  });

  it('without a schedule the blinds of the config, then of the last hand', () => {
    const t = table('tda-2007', [1, 2, 3], { blinds: [25, 50] });
    expect(t.next()?.blinds).toEqual([25, 50]);
    expect(nextHand(t.ctx(), 0)?.blinds).toEqual([25, 50]);
  });
});
