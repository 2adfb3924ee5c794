import { firstValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { DeckRegistry } from '../../../src/domain/deck-registry.js';
import { rfidToDomain, toDomain } from '../../../src/normaliser/rfid-reader.js';
import { Bench, PUCK, SEAT } from '../devices/rfid-reader/bench.js';

const registry = DeckRegistry.forScenario(['A']);
const ACE = registry.uidOf('A', 'As') ?? '';

describe('rfid-reader to domain events', () => {
  it('names the card a tag stands for, registered or foreign', () => {
    expect(
      toDomain(
        { kind: 'tag.seen', zone: 'seat:2', uid: ACE, readerTime: 9, rssi: -50, t: 1200 },
        'rfid-1',
        registry,
      ),
    ).toEqual([{ type: 'card.seen', t: 1200, zone: 'seat:2', uid: ACE, face: 'As', deck: 'A' }]);
    expect(
      toDomain(
        { kind: 'tag.gone', zone: 'muck', uid: '04a1b2c3', readerTime: 9, t: 1300 },
        'rfid-1',
        registry,
      ),
    ).toEqual([{ type: 'card.gone', t: 1300, zone: 'muck', uid: '04A1B2C3', face: null, deck: null }]);
  });

  it('gives a read its reader and round, and a round end the reader it is of', () => {
    expect(
      toDomain(
        { kind: 'tag.seen', zone: 'board', uid: ACE, readerTime: 9, rssi: -50, t: 800, round: 12 },
        'rfid-east',
        registry,
      ),
    ).toEqual([
      {
        type: 'card.seen',
        t: 800,
        zone: 'board',
        uid: ACE,
        face: 'As',
        deck: 'A',
        round: { reader: 'rfid-east', n: 12 },
      },
    ]);
    expect(toDomain({ kind: 'round.end', round: 12, readerTime: 9, t: 900 }, 'rfid-east', registry)).toEqual([
      { type: 'round.end', t: 900, round: { reader: 'rfid-east', n: 12 } },
    ]);
  });

  it('puts the button at the seat its puck was read at, and nowhere for a puck off the seats', () => {
    expect(
      toDomain({ kind: 'puck.seen', zone: 'seat:7', uid: PUCK, readerTime: 9, t: 50 }, 'rfid-1', registry),
    ).toEqual([{ type: 'button', t: 50, seat: 7 }]);
    expect(
      toDomain({ kind: 'puck.seen', zone: 'board', uid: PUCK, readerTime: 9, t: 50 }, 'rfid-1', registry),
    ).toEqual([]);
  });

  it('reports the reader under its configured id as a card reader, whatever the id, and keeps rejections out of the table', () => {
    expect(toDomain({ kind: 'status', status: 'fault', detail: 'fault 17', t: 5 }, 'east', registry)).toEqual(
      [{ type: 'device', t: 5, device: 'east', role: 'card-reader', status: 'fault', detail: 'fault 17' }],
    );
    expect(toDomain({ kind: 'rejected', reason: 'bad CRC', t: 5 }, 'east', registry)).toEqual([]);
  });

  it('turns a reader’s stream into what the table machine reads', async () => {
    const bench = new Bench().connect(0).heartbeats(0, 1000).reads(300, 1000, 300, SEAT(4), ACE);
    bench.read(400, SEAT(9), PUCK).at(1000, () => {
      bench.bytes.complete();
      bench.state.complete();
    });
    const domain = firstValueFrom(bench.reader.events.pipe(rfidToDomain('rfid-1', registry), toArray()));
    const role = 'card-reader';
    bench.run();
    expect(await domain).toEqual([
      { type: 'device', t: 0, device: 'rfid-1', role, status: 'offline', detail: 'waiting for HELLO' },
      {
        type: 'device',
        t: 0,
        device: 'rfid-1',
        role,
        status: 'online',
        detail: 'reader RB-0042, firmware 1.2.3',
      },
      { type: 'card.seen', t: 300, zone: 'seat:4', uid: ACE, face: 'As', deck: 'A' },
      { type: 'button', t: 400, seat: 9 },
    ]);
  });
});
