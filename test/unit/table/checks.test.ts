import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import type { DomainEvent, Unsequenced } from '../../../src/domain/events.js';
import { parseScenarioText } from '../../../src/scenario/load.js';
import { tableMachine } from '../../../src/table/machine.js';
import { readyDeck } from '../../deck-reports.js';

/** The dealer exposed the second card of the deal: a misdeal, whose procedure the sensors partly see. */
async function misdeal() {
  const file = new URL('../../scenarios/main-event-2014/exposed-card-dealer-card-2.yaml', import.meta.url);
  const scenario = parseScenarioText(await readFile(file, 'utf8'), file.pathname);
  const actor = createActor(tableMachine, { input: { seats: 9, profile: scenario.profile } });
  actor.start();
  const events = scenario.events.slice(0, 4);
  for (const event of events) actor.send(event);
  let seq = events.length;
  let t = 10_000;
  const send = (event: Unsequenced<DomainEvent>) => {
    t += 500;
    actor.send({ ...event, seq: seq++, t } as DomainEvent);
  };
  const open = () => actor.getSnapshot().context.open[0];
  const current = () => {
    const first = open();
    return first?.report.steps[first.step]?.code;
  };
  const confirm = () => send({ type: 'dealer', t: 0, input: 'confirm' });
  return { send, open, current, confirm, registry: scenario.registry };
}

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

  it('do not tick for what the sensors do not show: a deck one card short, another deck', async () => {
    const table = await misdeal();
    table.send({ ...READY_52, count: 51 });
    table.send({ ...READY_52, deck: 'B' });
    for (let i = 0; i < 4; i++) table.confirm();
    expect(table.current()).toBe('RESHUFFLE');
    table.send(READY_52);
    expect(table.current()).toBe('REDEAL');
  });

  it('tick themselves: every card lifted or mucked, then every bet zone and the pot read empty', async () => {
    const table = await misdeal();
    const card = (face: 'Kh' | '9s') => table.registry.lookup(table.registry.uidOf('A', face) as string);
    table.send({ type: 'chips', t: 0, zone: 'bet:1', amount: 50 });
    table.send({ type: 'chips', t: 0, zone: 'bet:2', amount: 100 });
    table.confirm();
    expect(table.current()).toBe('COLLECT_CARDS');
    // Lifted and put back down: not collected after all.
    table.send({ type: 'card.gone', t: 0, zone: 'seat:2', ...card('9s') });
    table.send({ type: 'card.seen', t: 0, zone: 'seat:2', ...card('9s') });
    table.send({ type: 'card.gone', t: 0, zone: 'seat:1', ...card('Kh') });
    expect(table.current()).toBe('COLLECT_CARDS');
    table.send({ type: 'card.seen', t: 0, zone: 'muck', ...card('9s') });
    expect(table.current()).toBe('RETURN_BETS');
    table.send({ type: 'chips', t: 0, zone: 'bet:1', amount: 0 });
    table.send({ type: 'chips', t: 0, zone: 'bet:2', amount: 100 });
    expect(table.current()).toBe('RETURN_BETS');
    table.send({ type: 'chips', t: 0, zone: 'bet:2', amount: 0 });
    expect(table.current()).toBe('BUTTON_STAYS');
  });
});
