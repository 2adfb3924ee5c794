import { describe, expect, it } from 'vitest';
import { IdentityClaims } from '../../../../devices/identity-claims.js';
import type { Message } from '../../../../firmware-bridge/messages.js';
import { Bench, BOOT, HELLO, MUCK, PUCK, presence, SEAT, statuses, uid } from './bench.js';

const CARD = uid(1);
const OTHER = uid(2);

describe('rfid-reader driver: handshake', () => {
  it('asks the board who it is, then sets its antenna map and inventory period', () => {
    const bench = new Bench({ inventoryPeriodMs: 300, antennas: { 0: 'seat:1', 7: 'muck' } }).connect(0);
    const events = bench.run();
    expect(bench.written).toEqual([
      { type: 'command', command: 'identify', blinkSeconds: 0 },
      {
        type: 'command',
        command: 'set-antenna-map',
        antennas: [
          { index: 0, label: 'seat:1' },
          { index: 7, label: 'muck' },
        ],
      },
      { type: 'command', command: 'set-inventory-period', periodMs: 300 },
    ]);
    expect(events.filter((event) => event.kind === 'status')).toEqual([
      { kind: 'status', status: 'offline', detail: 'waiting for HELLO', t: 0 },
      { kind: 'status', status: 'online', detail: 'reader RB-0042, firmware 1.2.3', t: 0 },
      {
        kind: 'status',
        status: 'offline',
        detail: 'reader RB-0042, firmware 1.2.3: nothing heard for 3000 ms',
        t: 3000,
      },
    ]);
  });

  it('refuses a device that says it is of another kind, and ignores what it sends', () => {
    const shuffler: Message = {
      type: 'hello',
      kind: 'shuffler',
      firmware: '2.0.0',
      serial: 'SH-7',
      antennas: [],
    };
    const bench = new Bench().connect(0, shuffler).heartbeats(0, 2000).reads(500, 2000, 300, SEAT(3), CARD);
    const events = bench.run();
    expect(events).toContainEqual({
      kind: 'rejected',
      reason:
        'refused HELLO: the device on this link says it is a shuffler (serial SH-7), not an rfid-reader',
      t: 0,
    });
    expect(statuses(events)).toEqual(['offline @0', 'fault @0']);
    expect(presence(events)).toEqual([]);
    expect(bench.written.map((message) => message.type === 'command' && message.command)).toEqual([
      'identify',
    ]);
    expect(bench.reader.counters()?.refused).toBe(1 + 3 + 5); // HEALTH, heartbeats, reads
  });

  it('refuses a reader of another serial than the configured one: its reads never reach the table', () => {
    const bench = new Bench({ serial: 'RB-0042' });
    bench.connect(0, {
      type: 'hello',
      kind: 'rfid-reader',
      firmware: '1.2.3',
      serial: 'RB-9999',
      antennas: [],
    });
    const events = bench.heartbeats(0, 2000).reads(500, 2000, 300, SEAT(3), CARD).run();
    expect(events).toContainEqual({
      kind: 'rejected',
      reason:
        'refused HELLO: an rfid-reader with serial RB-9999 is on this link, not the configured RB-0042: refused',
      t: 0,
    });
    expect(statuses(events)).toEqual(['offline @0', 'fault @0']);
    expect(presence(events)).toEqual([]);
  });

  it('refuses a second reader saying hello with the serial another reader of the table holds', () => {
    const claims = new IdentityClaims();
    const first = new Bench({ id: 'rfid-1' }, claims);
    first.connect(0).heartbeats(0, 2000).run(2000);
    const clone = new Bench({ id: 'rfid-2' }, claims);
    const events = clone.connect(0).heartbeats(0, 2000).reads(500, 2000, 300, SEAT(3), CARD).run();
    expect(statuses(events)).toEqual(['offline @0', 'fault @0']);
    expect(events.find((e) => e.kind === 'rejected')).toMatchObject({
      reason: expect.stringContaining('rfid-1 already said hello as rfid-reader RB-0042'),
    });
    expect(presence(events)).toEqual([]);
    expect(statuses(first.events)).toEqual(['offline @0', 'online @0']);
  });

  it('reports a command the board refuses', () => {
    const bench = new Bench().connect(0).send(10, { type: 'nack', ackSeq: 2, error: 'bad-argument' });
    expect(bench.run()).toContainEqual({
      kind: 'rejected',
      reason: 'the reader refused set-inventory-period: bad-argument',
      t: 10,
    });
  });
});

describe('rfid-reader driver: presence debouncing', () => {
  it('reports a card at its first read, with the reader time and RSSI of that read', () => {
    const bench = new Bench().connect(0).heartbeats(0, 2000).read(500, SEAT(3), CARD, -41);
    expect(bench.run().filter((event) => event.kind === 'tag.seen')).toEqual([
      { kind: 'tag.seen', zone: 'seat:3', uid: CARD, readerTime: 500 + BOOT, rssi: -41, t: 500 },
    ]);
  });

  it('says nothing more while the card keeps being read', () => {
    const bench = new Bench().connect(0).heartbeats(0, 10_000).reads(500, 10_000, 300, SEAT(3), CARD);
    expect(presence(bench.run())).toEqual([`tag.seen ${CARD} seat:3 @500`]);
  });

  it('does not end a card that misses one or two rounds, even when the board says TAG_GONE', () => {
    const bench = new Bench().connect(0).heartbeats(0, 6000);
    bench.reads(500, 1400, 300, SEAT(3), CARD).gone(1400, SEAT(3), CARD); // misses 1400
    bench.reads(1700, 2600, 300, SEAT(3), CARD).gone(2600, SEAT(3), CARD); // misses 2600 and 2900
    bench.reads(3200, 6000, 300, SEAT(3), CARD);
    expect(presence(bench.run())).toEqual([`tag.seen ${CARD} seat:3 @500`]);
  });

  it('ends a removed card once it has been unread for the presence timeout', () => {
    // Last read at 1700; the next frame past 1700 + 1500 is the heartbeat at 4000.
    const bench = new Bench().connect(0).heartbeats(0, 5000).reads(500, 2000, 300, SEAT(3), CARD);
    const events = bench.run();
    expect(presence(events)).toEqual([`tag.seen ${CARD} seat:3 @500`, `tag.gone ${CARD} seat:3 @3200`]);
    expect(events).toContainEqual({
      kind: 'tag.gone',
      zone: 'seat:3',
      uid: CARD,
      readerTime: 1700 + BOOT,
      t: 3200,
    });
  });

  it('ends it sooner after the board’s TAG_GONE, as soon as any frame shows the grace has passed', () => {
    const bench = new Bench().connect(0).heartbeats(0, 5000).reads(500, 2000, 300, SEAT(3), CARD);
    bench.gone(2000, SEAT(3), CARD).reads(2050, 5000, 300, SEAT(5), OTHER);
    const events = presence(bench.run());
    expect(events).toEqual([
      `tag.seen ${CARD} seat:3 @500`,
      `tag.seen ${OTHER} seat:5 @2050`,
      `tag.gone ${CARD} seat:3 @3000`,
    ]);
  });

  it('follows a card to another zone at its first read there, and ends it only where it is', () => {
    const bench = new Bench().connect(0).heartbeats(0, 9000);
    bench.reads(500, 1500, 300, SEAT(3), CARD).reads(1700, 5000, 300, MUCK, CARD);
    expect(presence(bench.run())).toEqual([
      `tag.seen ${CARD} seat:3 @500`,
      `tag.seen ${CARD} muck @1700`,
      `tag.gone ${CARD} muck @6200`,
    ]);
  });

  it('settles a card read alternately by two neighbouring antennas instead of flapping', () => {
    const bench = new Bench().connect(0).heartbeats(0, 12_000);
    bench.reads(500, 12_000, 300, SEAT(3), CARD).reads(650, 5000, 300, SEAT(4), CARD);
    // Seat 4 stops reading it at 4850: once a seat-3 read comes a grace later, it is back at seat 3.
    expect(presence(bench.run())).toEqual([
      `tag.seen ${CARD} seat:3 @500`,
      `tag.seen ${CARD} seat:4 @650`,
      `tag.seen ${CARD} seat:3 @5900`,
    ]);
  });

  it('reports the button puck where it lands, never as a card, and not when it leaves', () => {
    const bench = new Bench().connect(0).heartbeats(0, 9000);
    bench.reads(500, 3000, 300, SEAT(5), PUCK).reads(3300, 6000, 300, SEAT(6), PUCK);
    expect(presence(bench.run())).toEqual(['puck.seen seat:5 @500', 'puck.seen seat:6 @3300']);
  });
});

describe('rfid-reader driver: health', () => {
  it('is faulty while the board reports a fault, and judges no card meanwhile', () => {
    const bench = new Bench().connect(0).heartbeats(0, 10_000).reads(500, 10_000, 300, SEAT(3), CARD);
    bench.send(2000, { type: 'health', status: 'fault', code: 17, detail: 'antenna mux' });
    bench.send(5000, { type: 'health', status: 'degraded', code: 3, detail: 'antenna 9 weak' });
    const events = bench.run(10_000);
    expect(statuses(events)).toEqual(['offline @0', 'online @0', 'fault @2000', 'online @5000']);
    expect(events.filter((event) => event.kind === 'status').map((event) => event.detail)).toContain(
      'reader RB-0042, firmware 1.2.3: fault 17: antenna mux',
    );
    expect(presence(events)).toEqual([`tag.seen ${CARD} seat:3 @500`]);
  });

  it('goes offline when the board falls silent, and judges absence only once it is heard again', () => {
    const bench = new Bench().connect(0).heartbeats(0, 2000).heartbeats(8000, 11_000);
    bench.reads(500, 2000, 300, SEAT(3), CARD).reads(8100, 11_000, 300, SEAT(3), CARD);
    bench.reads(600, 2000, 300, SEAT(4), OTHER); // removed while the board was silent
    const events = bench.run(11_000);
    expect(statuses(events)).toEqual(['offline @0', 'online @0', 'offline @5000', 'online @8000']);
    expect(presence(events)).toEqual([
      `tag.seen ${CARD} seat:3 @500`,
      `tag.seen ${OTHER} seat:4 @600`,
      `tag.gone ${OTHER} seat:4 @9500`,
    ]);
  });

  it('goes offline at once when the link drops, and back online at the HELLO after it reopens', () => {
    const bench = new Bench().connect(0).heartbeats(0, 1000).reads(500, 1900, 300, SEAT(3), CARD);
    bench.at(1950, () => bench.bytes.next(bench.frame(HELLO).subarray(0, 5))); // cut off by the unplug
    bench.at(2000, () => bench.state.next({ up: false, reason: 'unplugged' }));
    bench.connect(6000).heartbeats(6000, 9000).reads(6200, 9000, 300, SEAT(3), CARD);
    const events = bench.run(9000);
    expect(statuses(events)).toEqual([
      'offline @0',
      'online @0',
      'offline @2000',
      'offline @6000',
      'online @6000',
    ]);
    expect(events.filter((event) => event.kind === 'status' && event.t === 2000)).toEqual([
      { kind: 'status', status: 'offline', detail: 'link down: unplugged', t: 2000 },
    ]);
    expect(events).toContainEqual({
      kind: 'rejected',
      reason: 'bad frame (unterminated): frame cut off after 4 bytes',
      t: 2000,
    });
    expect(presence(events)).toEqual([`tag.seen ${CARD} seat:3 @500`]);
    expect(
      bench.written.filter((message) => message.type === 'command' && message.command === 'identify'),
    ).toHaveLength(2);
  });
});

describe('rfid-reader driver: what it refuses', () => {
  it('reports an antenna the map does not name once, and counts every read on it', () => {
    const bench = new Bench({ antennas: { 0: 'seat:1' } }).connect(0).reads(500, 1400, 300, 20, CARD);
    const events = bench.run();
    expect(events.filter((event) => event.kind === 'rejected')).toEqual([
      {
        kind: 'rejected',
        reason: 'reads on antenna 20, which the antenna map does not name, are ignored',
        t: 500,
      },
    ]);
    expect(bench.reader.counters()?.refused).toBe(3);
  });

  it('reports frames lost on the way, by sequence number', () => {
    const bench = new Bench().connect(0).read(500, SEAT(3), CARD);
    bench.at(600, () => {
      bench.frame(HELLO);
      bench.frame(HELLO);
    });
    bench.read(700, SEAT(3), OTHER);
    const events = bench.run();
    expect(events).toContainEqual({ kind: 'rejected', reason: '2 frame(s) lost before seq 5', t: 700 });
    expect(bench.reader.counters()?.frames).toMatchObject({ sequenceGaps: 1, droppedFrames: 2 });
    expect(presence(events)).toHaveLength(2);
  });
});
