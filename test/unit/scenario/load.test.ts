import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { scenarioUid } from '../../../src/domain/deck-registry.js';
import { ScenarioError } from '../../../src/scenario/errors.js';
import { loadScenario, parseScenarioText, type Scenario } from '../../../src/scenario/load.js';

const SHARED = new URL('../../../../shared/scenarios/', import.meta.url);

function shared(name: string): Scenario {
  return parseScenarioText(readFileSync(new URL(name, SHARED), 'utf8'), name);
}

/** A ten-seat main-event scenario whose hand has started; `events` are the YAML items that follow. */
function yaml({
  events = [] as string[],
  expect = [] as string[],
  profile = 'main-event-2014',
  decks = '[A, B]',
}): string {
  return [
    'name: test',
    `profile: ${profile}`,
    'table: { seats: 10 }',
    `decks: ${decks}`,
    'events:',
    '  - hand.start: { button: 10, players: [1, 2, 3, 10], blinds: [100, 200], deck: A }',
    ...events.map((event) => `  - ${event}`),
    `expect: [${expect.join(', ')}]`,
  ].join('\n');
}

function load(text: string): Scenario {
  return parseScenarioText(text, 'me.yaml');
}

function errorOf(text: string): string {
  try {
    load(text);
  } catch (error) {
    if (error instanceof ScenarioError) return error.message;
    throw error;
  }
  throw new Error('the scenario was accepted');
}

describe('shared scenarios', () => {
  const files = readdirSync(SHARED).sort();

  it.each(files)('%s loads with one domain event per item, seq = index, t as written', (name) => {
    const items: { t: number }[] = parse(readFileSync(new URL(name, SHARED), 'utf8')).events;
    expect(shared(name).events.map((event) => [event.seq, event.t])).toEqual(
      items.map((item, i) => [i, item.t]),
    );
  });

  it('reads the YAML example with its table, profile, card reads and expectation', () => {
    const scenario = shared('me-premature-flop.yaml');
    expect(scenario.name).toBe('premature flop card while the big blind still has the option');
    expect(scenario.profile.id).toBe('main-event-2014');
    expect(scenario.table).toEqual({ seats: 10, orderWindowMs: 300 });
    expect(scenario.decks).toEqual(['A', 'B']);
    expect(scenario.events).toHaveLength(14);
    expect(scenario.events[0]).toEqual({
      type: 'hand.start',
      button: 10,
      players: [1, 2, 3, 10],
      blinds: [100, 200],
      deck: 'A',
      t: 0,
      seq: 0,
    });
    const qd = { uid: scenarioUid('A', 'Qd'), face: 'Qd', deck: 'A' };
    expect(scenario.events[13]).toEqual({ type: 'card.seen', zone: 'board', ...qd, t: 8500, seq: 13 });
    expect(scenario.events[9]).toEqual({
      type: 'action',
      seat: 3,
      act: 'call',
      amount: 200,
      t: 5000,
      seq: 9,
    });
    expect(scenario.expect).toEqual([
      {
        kind: 'incident',
        at: 13,
        incident: 'PREMATURE_FLOP',
        ruling: 'PREMATURE_RESHUFFLE_NO_BURN',
        seats: [2],
        cards: [qd],
      },
    ]);
  });

  it('reads JSON: a dealer input without a card, and counts', () => {
    const tda = shared('tda-exposed-first-card.json');
    expect(tda.profile.id).toBe('tda-2007');
    expect(tda.events[2]).toEqual({
      type: 'dealer',
      input: 'exposed',
      zone: 'seat:3',
      by: 'dealer',
      t: 1300,
      seq: 2,
    });
    expect(shared('clean-nine-handed.json').events).toHaveLength(44);
    expect(shared('clean-nine-handed.json').expect).toEqual([]);
    expect(shared('fc-premature-river-last-to-act.json').events).toHaveLength(40);
  });
});

describe('loadScenario', () => {
  it('reads the DESIGN.md example: short forms, default times, every event type', () => {
    const scenario = load(
      yaml({
        events: [
          'card: { zone: seat:1, card: As }',
          'gone: { zone: seat:1, card: As }',
          'dealer: { input: exposed, zone: seat:2, by: dealer }',
          'action: { seat: 3, act: raise, amount: 300 }',
          'chips: { zone: bet:3, amount: 300 }',
          'shuffler: { state: ready, deck: B, count: 52 }',
          'button: { seat: 10 }',
          'device: { device: rfid-1, status: fault, detail: antenna 4 }',
          't: 9000\n    card.seen: { zone: burn, card: B:Kd }',
          'card.gone: { zone: burn, card: B:Kd }',
        ],
      }),
    );
    const as = { uid: scenarioUid('A', 'As'), face: 'As', deck: 'A' };
    expect(scenario.events.slice(1)).toEqual([
      { type: 'card.seen', zone: 'seat:1', ...as, t: 500, seq: 1 },
      { type: 'card.gone', zone: 'seat:1', ...as, t: 1000, seq: 2 },
      { type: 'dealer', input: 'exposed', zone: 'seat:2', by: 'dealer', t: 1500, seq: 3 },
      { type: 'action', seat: 3, act: 'raise', amount: 300, t: 2000, seq: 4 },
      { type: 'chips', zone: 'bet:3', amount: 300, t: 2500, seq: 5 },
      {
        type: 'shuffler',
        state: 'ready',
        deck: 'B',
        count: 52,
        faceUp: [],
        missing: [],
        extra: [],
        t: 3000,
        seq: 6,
      },
      { type: 'button', seat: 10, t: 3500, seq: 7 },
      {
        type: 'device',
        device: 'rfid-1',
        role: 'card-reader',
        status: 'fault',
        detail: 'antenna 4',
        t: 4000,
        seq: 8,
      },
      {
        type: 'card.seen',
        zone: 'burn',
        uid: scenarioUid('B', 'Kd'),
        face: 'Kd',
        deck: 'B',
        t: 9000,
        seq: 9,
      },
      {
        type: 'card.gone',
        zone: 'burn',
        uid: scenarioUid('B', 'Kd'),
        face: 'Kd',
        deck: 'B',
        t: 9500,
        seq: 10,
      },
    ]);
    expect(scenario.table.orderWindowMs).toBe(300);
  });

  it('gives a device its role as written, or as the name of a device written without one says', () => {
    const scenario = load(
      yaml({
        events: [
          'device: { device: seat-reader, role: card-reader, status: offline }',
          'device: { device: rfid-east, status: offline }',
          'device: { device: shuffler-1, status: fault }',
          'device: { device: rfid-2, role: keypad, status: online }',
        ],
      }),
    );
    const devices = scenario.events.flatMap((e) => (e.type === 'device' ? [[e.device, e.role]] : []));
    expect(devices).toEqual([
      ['seat-reader', 'card-reader'],
      ['rfid-east', 'card-reader'],
      ['shuffler-1', undefined],
      ['rfid-2', 'keypad'],
    ]);
  });

  it('accepts a dead button, no small blind and an explicit big blind', () => {
    const [hand] = loadScenario(
      {
        name: 'dead button',
        profile: 'tda-2007',
        table: { seats: 6, orderWindowMs: 150 },
        decks: ['red'],
        events: [{ 'hand.start': { button: 4, players: [1, 2, 5], blinds: [50, 100], sb: null, bb: 5 } }],
      },
      'dead.json',
    ).events;
    expect(hand).toEqual({
      type: 'hand.start',
      button: 4,
      players: [1, 2, 5],
      blinds: [50, 100],
      sb: null,
      bb: 5,
      t: 0,
      seq: 0,
    });
  });

  it('turns card codes into the cards live reads would give, and back with codeOf', () => {
    const scenario = load(
      yaml({
        events: [
          'card: { zone: seat:1, card: As }',
          'card: { zone: seat:2, card: B:As }',
          'card: { zone: seat:3, card: "?:04a1b2c3" }',
          'card: { zone: seat:1, card: As#2 }',
          'card: { zone: seat:2, card: B:As#3 }',
          'card: { zone: seat:3, card: A:As#1 }',
        ],
      }),
    );
    const cards = scenario.events.slice(1).map((event) => (event.type === 'card.seen' ? event : undefined));
    expect(cards.map((card) => card && { uid: card.uid, face: card.face, deck: card.deck })).toEqual([
      { uid: scenarioUid('A', 'As'), face: 'As', deck: 'A' },
      { uid: scenarioUid('B', 'As'), face: 'As', deck: 'B' },
      { uid: '04A1B2C3', face: null, deck: null },
      { uid: scenarioUid('A', 'As', 2), face: 'As', deck: 'A' },
      { uid: scenarioUid('B', 'As', 3), face: 'As', deck: 'B' },
      { uid: scenarioUid('A', 'As'), face: 'As', deck: 'A' },
    ]);
    expect(cards.map((card) => card && scenario.codeOf(card))).toEqual([
      'As',
      'B:As',
      '?:04A1B2C3',
      'As#2',
      'B:As#3',
      'As',
    ]);
    expect(scenario.registry.uidOf('B', 'As', 2)).toBe(scenarioUid('B', 'As', 2));
  });

  it("reads decks named with their back: a copy deck plays as its back's first deck, under its own code", () => {
    const scenario = load(
      yaml({
        decks: '[{ id: A, back: red }, { id: B, back: blue }, { id: A2, back: red }]',
        events: [
          'card: { zone: seat:1, card: A2:As }',
          'card: { zone: seat:2, card: B:As }',
          'shuffler: { state: ready, deck: A2, count: 52 }',
          'hand.start: { button: 3, players: [1, 2, 3], blinds: [1, 2], deck: A2 }',
        ],
      }),
    );
    expect(scenario.decks).toEqual(['A', 'B', 'A2']);
    const [, copy, other, shuffler, hand] = scenario.events;
    expect(copy).toMatchObject({ uid: scenarioUid('A2', 'As'), face: 'As', deck: 'A' });
    expect(other).toMatchObject({ uid: scenarioUid('B', 'As'), face: 'As', deck: 'B' });
    expect(copy?.type === 'card.seen' && scenario.codeOf(copy)).toBe('A2:As');
    expect([shuffler, hand]).toMatchObject([{ deck: 'A' }, { deck: 'A' }]);
  });

  it('alternates two backs for plain deck ids: a third is a copy of the first', () => {
    const scenario = load(yaml({ decks: '[A, B, C]', events: ['card: { zone: seat:1, card: C:As }'] }));
    expect(scenario.events[1]).toMatchObject({ face: 'As', deck: 'A' });
  });

  it('reads shuffler card lists and expectations with prompts', () => {
    const scenario = load(
      yaml({
        events: [
          'shuffler: { state: ready, count: 53, extra: ["?:04A1B2C3"], missing: [Kd], faceUp: [B:2c] }',
        ],
        expect: [
          '{ incident: DECK_COUNT, ruling: DECK_REJECTED }',
          '{ incident: ALL_IN_SHOWDOWN, seats: [1, 2] }',
          '{ prompt: ALL_IN_SHOWDOWN, at: 1 }',
        ],
      }),
    );
    expect(scenario.events[1]).toMatchObject({
      type: 'shuffler',
      deck: null,
      count: 53,
      extra: [{ uid: '04A1B2C3', face: null, deck: null }],
      missing: [{ face: 'Kd', deck: 'A' }],
      faceUp: [{ face: '2c', deck: 'B' }],
    });
    expect(scenario.expect).toEqual([
      { kind: 'incident', incident: 'DECK_COUNT', ruling: 'DECK_REJECTED' },
      { kind: 'prompt', prompt: 'ALL_IN_SHOWDOWN', seats: [1, 2] },
      { kind: 'prompt', prompt: 'ALL_IN_SHOWDOWN', at: 1 },
    ]);
  });

  it("reads an incident's expected procedure steps, sensed and confirmed, either list alone", () => {
    const scenario = load(
      yaml({
        expect: [
          '{ incident: EXPOSED_CARD, ruling: MISDEAL, steps: { sensed: [COLLECT_CARDS], confirmed: [STOP_DEAL] } }',
          '{ incident: EXPOSED_CARD, ruling: MISDEAL, steps: { confirmed: [] } }',
        ],
      }),
    );
    expect(scenario.expect).toEqual([
      {
        kind: 'incident',
        incident: 'EXPOSED_CARD',
        ruling: 'MISDEAL',
        steps: { sensed: ['COLLECT_CARDS'], confirmed: ['STOP_DEAL'] },
      },
      { kind: 'incident', incident: 'EXPOSED_CARD', ruling: 'MISDEAL', steps: { confirmed: [] } },
    ]);
  });
});

describe('malformed scenarios', () => {
  it('an unknown event key', () => {
    expect(errorOf(yaml({ events: ['cards: { zone: seat:1, card: As }'] }))).toBe(
      'me.yaml: events[1]: unknown event "cards" (one of hand.start, card.seen, card.gone, shuffler, button, chips, action, dealer, device, seat, card, gone)',
    );
  });

  it('two event keys in one item', () => {
    expect(
      errorOf(yaml({ events: ['{ card: { zone: seat:1, card: As }, gone: { zone: seat:1, card: As } }'] })),
    ).toBe('me.yaml: events[1]: "card" and "gone" in one item; an item holds one event');
  });

  it('an item with no event', () => {
    expect(errorOf(yaml({ events: ['{ t: 100 }'] }))).toMatch(
      /^me\.yaml: events\[1\]: no event \(one of hand\.start, /,
    );
  });

  it('a bad card code', () => {
    const events = [
      '{ t: 1000, card: { zone: seat:3, card: Kd } }',
      'card: { zone: seat:1, card: As }',
      'card: { zone: seat:2, card: Zz }',
    ];
    expect(errorOf(yaml({ events }))).toBe(
      'me.yaml: events[3].card.card: "Zz" is not a card code (rank 2-9TJQKA + suit shdc, optional "B:" deck prefix)',
    );
    expect(errorOf(yaml({ events: ['dealer: { input: boxed, card: 10h }'] }))).toBe(
      'me.yaml: events[1].dealer.card: "10h" is not a card code (rank 2-9TJQKA + suit shdc, optional "B:" deck prefix)',
    );
  });

  it('a bad unregistered tag, or a registered one written as unregistered', () => {
    expect(errorOf(yaml({ events: ['card: { zone: board, card: "?:XYZ" }'] }))).toBe(
      'me.yaml: events[1].card.card: "?:XYZ": "XYZ" is not a tag UID (4 to 10 bytes in hex)',
    );
    expect(errorOf(yaml({ events: [`card: { zone: board, card: "?:${scenarioUid('B', 'Td')}" }`] }))).toBe(
      `me.yaml: events[1].card.card: "?:${scenarioUid('B', 'Td')}" is the tag of B:Td, not an unregistered one`,
    );
  });

  it('a copy whose tag UID is written above as an unregistered tag', () => {
    const uid = scenarioUid('A', 'Td', 2);
    expect(
      errorOf(
        yaml({ events: [`card: { zone: board, card: "?:${uid}" }`, 'card: { zone: board, card: Td#2 }'] }),
      ),
    ).toBe(`me.yaml: events[2].card.card: "Td#2": its tag UID ${uid} is already used above as "?:${uid}"`);
  });

  it('a seat out of range', () => {
    expect(errorOf(yaml({ events: ['card: { zone: seat:11, card: As }'] }))).toBe(
      'me.yaml: events[1].card.zone: seat 11 is out of range (table has 10 seats)',
    );
    expect(
      errorOf(yaml({ events: ['hand.start: { button: 3, players: [1, 2, 12], blinds: [1, 2] }'] })),
    ).toBe('me.yaml: events[1].hand.start.players[2]: seat 12 is out of range (table has 10 seats)');
    expect(errorOf(yaml({ events: ['action: { seat: 0, act: fold }'] }))).toBe(
      'me.yaml: events[1].action.seat: seat 0 is out of range (table has 10 seats)',
    );
    expect(errorOf(yaml({ events: ['chips: { zone: bet:99, amount: 5 }'] }))).toBe(
      'me.yaml: events[1].chips.zone: seat 99 is out of range (table has 10 seats)',
    );
  });

  it('a zone that is not one', () => {
    expect(errorOf(yaml({ events: ['card: { zone: seat1, card: As }'] }))).toBe(
      'me.yaml: events[1].card.zone: "seat1" is not a zone (seat:1-seat:10, board, burn, muck)',
    );
  });

  it('players listed twice, or a blind seat that is not a player', () => {
    expect(errorOf(yaml({ events: ['hand.start: { button: 3, players: [1, 2, 1], blinds: [1, 2] }'] }))).toBe(
      'me.yaml: events[1].hand.start.players[2]: seat 1 is listed twice',
    );
    expect(
      errorOf(yaml({ events: ['hand.start: { button: 3, players: [1, 2, 3], blinds: [1, 2], sb: 4 }'] })),
    ).toBe('me.yaml: events[1].hand.start.sb: seat 4 is not one of the players');
  });

  it('an unknown profile', () => {
    expect(errorOf(yaml({ profile: 'main-event' }))).toBe(
      'me.yaml: profile: "main-event" is not a profile (main-event-2014, french-casino, tda-2007, tda-2024)',
    );
  });

  it('an unknown deck', () => {
    expect(errorOf(yaml({ events: ['card: { zone: board, card: C:As }'] }))).toBe(
      'me.yaml: events[1].card.card: "C:As": deck "C" is not in decks (A, B)',
    );
    expect(
      errorOf(yaml({ events: ['hand.start: { button: 3, players: [1, 2, 3], blinds: [1, 2], deck: C }'] })),
    ).toBe('me.yaml: events[1].hand.start.deck: deck "C" is not in decks (A, B)');
    expect(errorOf(yaml({ decks: '[A, A]' }))).toBe('me.yaml: decks[1]: deck A is listed twice');
    expect(errorOf(yaml({ decks: '["A:B"]' }))).toBe(
      'me.yaml: decks[0]: "A:B" is not a deck id (letters, digits, - and _)',
    );
  });

  it('a bad deck entry, named at its place', () => {
    const decksError = (decks: string) => errorOf(yaml({ decks }));
    expect(decksError('[{ id: A, back: red }, { id: A2 }]')).toBe('me.yaml: decks[1].back: required');
    expect(decksError('[{ id: A, back: red team }]')).toBe(
      'me.yaml: decks[0].back: "red team" is not a back colour (letters, digits, - and _)',
    );
    expect(decksError('[{ id: 3, back: red }]')).toBe('me.yaml: decks[0].id: expected a string, got 3');
    expect(decksError('[{ id: A, back: red, colour: red }]')).toBe(
      'me.yaml: decks[0]: unknown field "colour"',
    );
    expect(decksError('[{ id: A, back: red }, { id: A, back: blue }]')).toBe(
      'me.yaml: decks[1]: deck A is listed twice',
    );
    expect(decksError('[A, 3]')).toBe('me.yaml: decks[1]: 3 is not a deck (an id, or { id, back })');
    expect(decksError('[A, { id: A2, back: red }]')).toBe(
      'me.yaml: decks[1]: either every deck is a plain id or every deck is { id, back }, not both',
    );
  });

  it('wrong types', () => {
    expect(errorOf(yaml({ events: ['action: { seat: 3, act: raise, amount: "300" }'] }))).toBe(
      'me.yaml: events[1].action.amount: expected a number, got "300"',
    );
    expect(errorOf(yaml({ events: ['{ t: "1s", button: { seat: 3 } }'] }))).toBe(
      'me.yaml: events[1].t: expected a number, got "1s"',
    );
    expect(errorOf(yaml({ events: ['action: { seat: 2.5, act: fold }'] }))).toBe(
      'me.yaml: events[1].action.seat: expected a whole number, got 2.5',
    );
    expect(errorOf(yaml({ events: ['action: { seat: 3, act: raises }'] }))).toBe(
      'me.yaml: events[1].action.act: expected "fold" | "check" | "call" | "bet" | "raise" | "allin", got "raises"',
    );
    expect(errorOf(yaml({ events: ['button: 3'] }))).toBe(
      'me.yaml: events[1].button: expected a mapping, got 3',
    );
    expect(errorOf(yaml({ events: ['action: { seat: 3 }'] }))).toBe(
      'me.yaml: events[1].action.act: required ("fold" | "check" | "call" | "bet" | "raise" | "allin")',
    );
    expect(errorOf(yaml({ events: ['action: { seat: 3, act: call, amout: 3 }'] }))).toBe(
      'me.yaml: events[1].action: unknown field "amout"',
    );
    expect(errorOf('[1, 2]')).toBe('me.yaml: expected a mapping, got a list');
    expect(errorOf(yaml({}).replace('name: test', 'title: test'))).toBe('me.yaml: name: required');
  });

  it('bad expectations', () => {
    expect(errorOf(yaml({ expect: ['{ incident: EXPOSED_CARD }'] }))).toBe(
      'me.yaml: expect[0]: EXPOSED_CARD needs a ruling',
    );
    expect(errorOf(yaml({ expect: ['{ incident: EXPOSED, ruling: MISDEAL }'] }))).toBe(
      'me.yaml: expect[0].incident: "EXPOSED" is not an incident code (see RULINGS.md)',
    );
    expect(errorOf(yaml({ expect: ['{ at: 1, incident: EXPOSED_CARD, ruling: MISDEAL }'] }))).toBe(
      'me.yaml: expect[0].at: there is no event 1 (the file has 1)',
    );
    expect(errorOf(yaml({ expect: ['{ prompt: ALL_IN_SHOWDOWN, ruling: MISDEAL }'] }))).toBe(
      'me.yaml: expect[0]: a prompt has no ruling and no cards',
    );
    expect(errorOf(yaml({ expect: ['{ ruling: MISDEAL }'] }))).toBe(
      'me.yaml: expect[0]: needs either incident or prompt',
    );
  });

  it('bad expected steps', () => {
    const steps = (given: string, code = 'incident: EXPOSED_CARD, ruling: MISDEAL') =>
      errorOf(yaml({ expect: [`{ ${code}, steps: ${given} }`] }));
    expect(steps('{ sensed: [SHUFFLE] }')).toBe(
      'me.yaml: expect[0].steps.sensed[0]: "SHUFFLE" is not a step code (see src/rules/step-texts.ts)',
    );
    expect(steps('{ confirmed: [STOP_DEAL, REDEAL, STOP_DEAL] }')).toBe(
      'me.yaml: expect[0].steps.confirmed[2]: "STOP_DEAL" is listed twice',
    );
    expect(steps('{ sensed: [RESHUFFLE], confirmed: [STOP_DEAL, RESHUFFLE] }')).toBe(
      'me.yaml: expect[0].steps.confirmed[1]: "RESHUFFLE" is in sensed and in confirmed: a step is done once',
    );
    expect(steps('{ ticked: [REDEAL] }')).toBe('me.yaml: expect[0].steps: unknown field "ticked"');
    expect(steps('[REDEAL]')).toBe('me.yaml: expect[0].steps: expected a mapping, got a list');
    expect(steps('{ sensed: [] }', 'prompt: ALL_IN_SHOWDOWN')).toBe(
      "me.yaml: expect[0]: a prompt's steps are not followed: only an incident has steps",
    );
  });

  it('a YAML syntax error names the file and the line, in one line', () => {
    expect(errorOf('name: [unclosed')).toMatch(/^me\.yaml: .* at line 1, column \d+$/);
    expect(errorOf('name: a\nname: b\n')).toMatch(/^me\.yaml: Map keys must be unique at line 2, column 1$/);
  });

  it('a JSON text: a key written twice or a syntax error is named by line and column', () => {
    const json = JSON.stringify(parse(yaml({})), null, 2);
    expect(json.split('\n')[1]).toBe('  "name": "test",');
    expect(errorOf(json.replace('"name": "test",', '"name": "test",\n  "name": "again",'))).toBe(
      'me.yaml: Map keys must be unique at line 3, column 3',
    );
    const twice = json.replace('"events": [', '"events": [\n    { "button": { "seat": 1, "seat": 2 } },');
    expect(errorOf(twice)).toMatch(/^me\.yaml: Map keys must be unique at line \d+, column \d+$/);
    expect(errorOf(json.replace('"name": "test",', '"name": "test"'))).toBe(
      'me.yaml: Missing , between flow map items at line 3, column 3',
    );
  });

  it('an item keyed __proto__ is an unknown event, not a prototype', () => {
    const json = JSON.stringify(parse(yaml({}))).replace('"events":[', '"events":[{"__proto__":{"t":1}},');
    expect(errorOf(json)).toMatch(/^me\.yaml: events\[0\]: unknown event "__proto__" \(one of /);
  });

  it('a file of aliases past any real use (billion laughs) is refused, ordinary reuse is read', () => {
    const laughs = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 0; i < 8; i++)
      laughs.push(
        `${'b'.repeat(i + 1)}: &l${i} [${`*${i === 0 ? 'a' : `l${i - 1}`}, `.repeat(10).slice(0, -2)}]`,
      );
    expect(errorOf(laughs.join('\n'))).toMatch(/^me\.yaml: Excessive alias count/);
    const check = '{ action: &check { seat: 1, act: check } }';
    const reused = [check, ...Array.from({ length: 150 }, () => '{ action: *check }')];
    expect(load(yaml({ events: reused })).events).toHaveLength(152);
  });

  it('time running backwards beyond the reordering window', () => {
    const events = [
      '{ t: 5000, card: { zone: "seat:1", card: As } }',
      '{ t: 1000, card: { zone: "seat:2", card: Kd } }',
    ];
    expect(errorOf(yaml({ events }))).toBe(
      "me.yaml: events[2].t: 1000 is earlier than the previous event's 5000",
    );
    const cycle = [
      '{ t: 5000, card: { zone: "seat:2", card: Kd } }',
      '{ t: 4900, card: { zone: "seat:1", card: As } }',
    ];
    expect(load(yaml({ events: cycle })).events[2]?.t).toBe(4900);
  });

  it('a seat all-in from posting that is not a player', () => {
    const text = yaml({}).replace('deck: A }', 'deck: A, allIn: [5] }');
    expect(errorOf(text)).toBe('me.yaml: events[0].hand.start.allIn[0]: seat 5 is not one of the players');
  });

  it('a floor decision without a known value', () => {
    expect(errorOf(yaml({ events: ['{ dealer: { input: floor-decision, value: Misdeal } }'] }))).toBe(
      'me.yaml: events[1].dealer.value: a floor decision needs value: continue | misdeal | void',
    );
  });

  it('a number that is not one is shown as written', () => {
    expect(errorOf(yaml({ events: ['{ t: .nan, action: { seat: 1, act: fold } }'] }))).toBe(
      'me.yaml: events[1].t: expected a number, got NaN',
    );
  });
});
