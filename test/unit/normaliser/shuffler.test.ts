import { firstValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { ShufflerEvent } from '../../../devices/shuffler/driver.js';
import { DeckRegistry } from '../../../src/domain/deck-registry.js';
import { shufflerToDomain, toDomain } from '../../../src/normaliser/shuffler.js';
import { Bench, DEVICE, status, uid } from '../devices/shuffler/bench.js';

const registry = DeckRegistry.forScenario(['A', 'B']);
const QH = registry.uidOf('A', 'Qh') ?? '';
const SEVEN = registry.uidOf('A', '7h') ?? '';
const B_KING = registry.uidOf('B', 'Kh') ?? '';
const FOREIGN = uid(0xabcdef);

describe('shuffler to domain events', () => {
  it('names the cards of a report through the deck registry and leaves the order out', () => {
    expect(
      toDomain(
        {
          kind: 'report',
          t: 900,
          state: 'ready',
          deck: 'A',
          count: 52,
          faceUp: [QH],
          missing: [SEVEN],
          extra: [B_KING, FOREIGN],
          order: [QH, B_KING],
        },
        'shuffler',
        registry,
      ),
    ).toEqual([
      {
        type: 'shuffler',
        t: 900,
        state: 'ready',
        deck: 'A',
        count: 52,
        faceUp: [{ uid: QH, face: 'Qh', deck: 'A' }],
        missing: [{ uid: SEVEN, face: '7h', deck: 'A' }],
        extra: [
          { uid: B_KING, face: 'Kh', deck: 'B' },
          { uid: FOREIGN, face: null, deck: null },
        ],
      },
    ]);
  });

  it('leaves the count out when the shuffler gave none, and keeps rejections out of the table', () => {
    const report: ShufflerEvent = {
      kind: 'report',
      t: 5,
      state: 'jam',
      deck: null,
      faceUp: [],
      missing: [],
      extra: [],
    };
    expect(toDomain(report, 'shuffler', registry)).toEqual([
      { type: 'shuffler', t: 5, state: 'jam', deck: null, faceUp: [], missing: [], extra: [] },
    ]);
    expect(toDomain({ kind: 'rejected', reason: 'bad line', t: 5 }, 'shuffler', registry)).toEqual([]);
  });

  it('turns a driver stream into device and shuffler events under the configured id', async () => {
    const bench = new Bench().connect(0).send(100, status(1, { state: 'ready', deck: 'B', count: 52 }));
    bench.at(200, () => bench.bytes.complete()).at(200, () => bench.state.complete());
    const all = firstValueFrom(
      bench.driver.events.pipe(shufflerToDomain('shuffler-east', registry), toArray()),
    );
    await bench.run();
    expect((await all).map((event) => `${event.type} @${event.t}`)).toEqual([
      'device @0',
      'device @0',
      'shuffler @0',
      'shuffler @100',
    ]);
    expect(await all).toContainEqual({
      type: 'device',
      t: 0,
      device: 'shuffler-east',
      role: 'shuffler',
      status: 'online',
      detail: DEVICE,
    });
  });
});
