import { describe, expect, it } from 'vitest';
import { ZoneSettler } from '../../../../devices/chip-sensors/settle.js';
import { IdentityClaims } from '../../../../devices/identity-claims.js';
import { BASE, Bench, BOOT, HELLO, rejections, settled, statuses } from './bench.js';

/** 300 with ±0.2 of jitter, as a load cell reads a steady stack. */
const jittery =
  (amount: number) =>
  (time: number): number =>
    amount + (((time / 100) % 3) - 1) * 0.2;

describe('chip-sensors driver: protocol validation', () => {
  it('goes online at the sensor’s hello, naming it', () => {
    const events = new Bench().connect(0).run(1000);
    expect(statuses(events)).toEqual([
      'offline @0: broker: connecting to the broker',
      'offline @0: waiting for the sensor’s hello',
      'online @0: sensor CS-0042, firmware 1.4.0',
    ]);
  });

  it('rejects malformed messages with the field at fault, counts them, and loses no reading beside them', () => {
    const bench = new Bench()
      .connect(0)
      .readings(0, 1000, 'pot', jittery(300))
      .raw(250, 'reading', '{"seq":1,"zone":"pot"')
      .malformed(350, 'reading', { zone: 'pot', amount: '300' })
      .malformed(450, 'reading', { zone: 'bet:0', amount: 300 })
      .malformed(550, 'reading', { zone: 'pot', amount: 300, grams: 145 })
      .malformed(650, 'weight', { grams: 145 })
      .raw(750, 'status', '{"state":"asleep"}', true);
    const events = bench.run(2000);
    expect(rejections(events)).toEqual([
      "malformed reading: not JSON (Expected ',' or '}' after property value in JSON at position 21)",
      'malformed reading: amount: Invalid input: expected number, received string',
      'malformed reading: zone: "bet:0" is no chip zone: use bet:N, pot or tray',
      'malformed reading: Unrecognized key: "grams"',
      'a message on "weight", which is no channel of the protocol',
      "malformed status: state: Invalid discriminator value. Expected 'online' | 'offline'",
    ]);
    expect(settled(events)).toEqual(['pot 300 @500']);
    expect(bench.sensor.counters()).toEqual({
      received: 17,
      malformed: 6,
      lost: 0,
      refused: 0,
      readings: 10,
      contested: 0,
    });
    expect(statuses(events).at(-1)).toBe('online @0: sensor CS-0042, firmware 1.4.0');
  });

  it('refuses readings before the hello, reporting it once, and counts each', () => {
    const bench = new Bench()
      .at(0, () => bench.status$.next({ state: 'connected' }))
      .readings(0, 1000, 'pot', 300);
    bench.connect(1000).readings(1000, 2000, 'pot', 300);
    const events = bench.run(2500);
    expect(rejections(events)).toEqual(['messages before its hello are ignored']);
    expect(settled(events)).toEqual(['pot 300 @1500']);
    expect(bench.sensor.counters()?.refused).toBe(10);
  });

  it('refuses a device that says it is of another kind, and what it sends', () => {
    const bench = new Bench().connect(0, { ...HELLO, kind: 'shuffler' }).readings(0, 1000, 'pot', 300);
    const events = bench.run(2000);
    expect(statuses(events).at(-1)).toBe(
      'fault @0: the device on this topic says it is a shuffler (serial CS-0042), not a chip sensor',
    );
    expect(rejections(events)).toEqual([
      'refused hello: the device on this topic says it is a shuffler (serial CS-0042), not a chip sensor',
      'messages from a device that was refused are ignored',
    ]);
    expect(settled(events)).toEqual([]);
    expect(bench.sensor.counters()?.refused).toBe(10);
  });

  it('faults a sensor that does not measure a zone the config takes from it', () => {
    const events = new Bench().connect(0, { ...HELLO, zones: ['bet:1', 'pot'] }).run(1000);
    expect(statuses(events).at(-1)).toBe(
      'fault @0: sensor CS-0042, firmware 1.4.0 does not measure bet:3, which the config takes from it',
    );
  });

  it('ignores zones the config does not take, saying so once', () => {
    const bench = new Bench().connect(0).readings(0, 1000, 'tray', 5000).readings(0, 1000, 'bet:1', 0);
    const events = bench.run(1500);
    expect(rejections(events)).toEqual([
      'readings of tray, which the config does not take from this sensor, are ignored',
    ]);
    expect(settled(events)).toEqual(['bet:1 0 @500']);
    expect(bench.sensor.counters()).toMatchObject({ refused: 10, readings: 10 });
  });

  it('counts messages lost from the gaps in the sequence numbers, across the wrap, and refuses stale ones', () => {
    const bench = new Bench().connect(0).readings(0, 1000, 'pot', 300).lose(450, 4);
    bench.at(700, () =>
      bench.incoming.next({
        topic: `${BASE}/reading`,
        payload: Buffer.from(
          JSON.stringify({ seq: 4_294_967_295, sensorTime: BOOT + 700, zone: 'pot', amount: 9 }),
        ),
        retain: false,
      }),
    );
    const events = bench.run(1500);
    expect(rejections(events)).toEqual([
      '4 message(s) lost before seq 3',
      'stale message seq 4294967295 (expected 6): a duplicate or late',
    ]);
    expect(bench.sensor.counters()).toMatchObject({ lost: 4, refused: 1, readings: 10 });
    expect(settled(events)).toEqual(['pot 300 @500']);
  });

  it('refuses retained readings, which are stale', () => {
    const bench = new Bench().connect(0).stamped(10, 'reading', { zone: 'pot', amount: 1 }, true);
    expect(rejections(bench.run(100))).toEqual(['retained messages but the status are stale and ignored']);
    expect(bench.sensor.counters()?.refused).toBe(1);
  });
});

describe('chip-sensors driver: identity', () => {
  const hello = (serial: string) => JSON.stringify({ ...HELLO, serial });
  const goodbye = '{"state":"offline","reason":"shutdown"}';
  const CONTEST =
    'two devices publish as chips-1: sensor CS-0042, online, and CS-0666, which said hello too; ignored until a goodbye and a new hello, or a restart';

  it('refuses a sensor of another serial than the configured one: its readings never reach the table', () => {
    const bench = new Bench({ serial: 'CS-0007' }).connect(0).readings(0, 1000, 'pot', 300);
    const events = bench.run(2000);
    expect(statuses(events).at(-1)).toBe(
      'fault @0: a chip sensor with serial CS-0042 is on this topic, not the configured CS-0007: refused',
    );
    expect(rejections(events)).toEqual([
      'refused hello: a chip sensor with serial CS-0042 is on this topic, not the configured CS-0007: refused',
      'messages from a device that was refused are ignored',
    ]);
    expect(settled(events)).toEqual([]);
    expect(bench.sensor.counters()?.refused).toBe(10);
  });

  it('takes the configured serial', () => {
    const events = new Bench({ serial: 'CS-0042' }).connect(0).readings(0, 1000, 'pot', 300).run(2000);
    expect(statuses(events).at(-1)).toBe('online @0: sensor CS-0042, firmware 1.4.0');
    expect(settled(events)).toEqual(['pot 300 @500']);
  });

  it('faults at a second device saying hello while the sensor is online, and acts on neither until a goodbye and a hello', () => {
    const bench = new Bench()
      .connect(0)
      .readings(0, 1000, 'pot', 300)
      .raw(1000, 'status', hello('CS-0666'), true)
      .readings(1000, 2000, 'pot', 900)
      // The real sensor saying hello again does not clear it: either may be the clone.
      .raw(2000, 'status', hello('CS-0042'), true)
      .readings(2000, 3000, 'pot', 900)
      .raw(3000, 'status', goodbye, true)
      .raw(3100, 'status', hello('CS-0042'), true)
      .readings(3100, 4000, 'pot', 500);
    const events = bench.run(4000);
    expect(statuses(events).slice(2)).toEqual([
      'online @0: sensor CS-0042, firmware 1.4.0',
      `fault @1000: ${CONTEST}`,
      'offline @3000: sensor CS-0042 is offline: shutdown',
      'online @3100: sensor CS-0042, firmware 1.4.0',
    ]);
    expect(rejections(events)).toEqual([
      'refused hello of CS-0666: sensor CS-0042 was online on this topic and has not said goodbye',
      'messages while two devices publish as this sensor are ignored',
      'refused hello of CS-0042: sensor CS-0042 was online on this topic and has not said goodbye',
    ]);
    expect(settled(events)).toEqual(['pot 300 @500', 'pot 500 @3600']);
    expect(bench.sensor.counters()).toMatchObject({ contested: 1, refused: 20, readings: 19 });
  });

  it('stays in fault through croupier’s own reconnection, the retained hello being either device’s', () => {
    const bench = new Bench().connect(0).raw(100, 'status', hello('CS-0666'), true);
    bench.at(500, () => bench.status$.next({ state: 'offline', reason: 'broker restarting' }));
    bench.at(800, () => bench.status$.next({ state: 'connected' }));
    bench.raw(800, 'status', hello('CS-0666'), true).readings(800, 2000, 'pot', 300);
    const events = bench.run(2000);
    expect(statuses(events).slice(3)).toEqual([
      `fault @100: ${CONTEST}`,
      'offline @500: broker: broker restarting',
      `fault @800: ${CONTEST}`,
    ]);
    expect(settled(events)).toEqual([]);
    expect(bench.sensor.counters()?.contested).toBe(2);
  });

  it('takes a sensor of another serial after the first went silent, or said goodbye: a replacement', () => {
    const bench = new Bench({ silenceMs: 1000 })
      .connect(0)
      .readings(0, 500, 'pot', 300)
      .raw(2000, 'status', hello('CS-0666'), true)
      .readings(2000, 3000, 'pot', 300)
      .raw(3000, 'status', '{"state":"offline","reason":"connection lost"}', true)
      .raw(3100, 'status', hello('CS-0777'), true);
    const events = bench.run(3500);
    expect(statuses(events).slice(2)).toEqual([
      'online @0: sensor CS-0042, firmware 1.4.0',
      'offline @1400: sensor CS-0042, firmware 1.4.0: nothing heard for 1000 ms',
      'online @2000: sensor CS-0666, firmware 1.4.0',
      'offline @3000: sensor CS-0666 is offline: connection lost',
      'online @3100: sensor CS-0777, firmware 1.4.0',
    ]);
    expect(bench.sensor.counters()?.contested).toBe(0);
  });

  it('refuses a sensor giving the serial a sensor of another topic holds, until that one says goodbye', () => {
    const claims = new IdentityClaims();
    const first = new Bench({}, claims).connect(0).raw(2000, 'status', goodbye, true);
    // A clone of CS-0042 publishing under chips-2's topic, and saying hello again after the goodbye.
    const clone = new Bench({ id: 'chips-2' }, claims)
      .connect(0)
      .readings(0, 1000, 'pot', 300)
      .raw(3000, 'status', hello('CS-0042'), true);
    first.run(1000);
    expect(statuses(clone.run(1000)).at(-1)).toBe(
      'fault @0: chips-1 already said hello as chip-sensors CS-0042: two devices give one serial number; refused until chips-1 goes offline and this one says hello again',
    );
    expect(settled(clone.events)).toEqual([]);
    first.run(2000);
    expect(statuses(clone.run(3000)).at(-1)).toBe('online @3000: sensor CS-0042, firmware 1.4.0');
    expect(claims.holder('chip-sensors', 'CS-0042')).toBe('chips-2');
  });

  it('leaves its serial when its subscription ends: a new one starts with no claim', () => {
    const claims = new IdentityClaims();
    const bench = new Bench({}, claims).connect(0);
    bench.run(100);
    expect(claims.serialHeldBy('chips-1')).toBe('CS-0042');
    bench.close();
    expect(claims.serialHeldBy('chips-1')).toBeUndefined();
  });

  it('takes the retained hello of a sensor replaced while croupier’s own link was down', () => {
    const bench = new Bench().connect(0);
    bench.at(500, () => bench.status$.next({ state: 'offline', reason: 'broker restarting' }));
    bench.at(800, () => bench.status$.next({ state: 'connected' }));
    bench.raw(800, 'status', hello('CS-0666'), true);
    expect(statuses(bench.run(1000)).at(-1)).toBe('online @800: sensor CS-0666, firmware 1.4.0');
  });
});

describe('chip-sensors driver: settling', () => {
  it('reports a jittering stack once, at the reading that made it stable, rounded to the resolution', () => {
    const bench = new Bench().connect(0).readings(0, 5000, 'bet:3', jittery(300));
    const events = bench.run(5000);
    expect(events.filter((event) => event.kind === 'chips')).toEqual([
      { kind: 'chips', zone: 'bet:3', amount: 300, previous: null, sensorTime: BOOT + 500, t: 500 },
    ]);
  });

  it('gives one event per real change: the swing while chips are laid down is no amount', () => {
    const swing = [150, 420, 260, 330];
    const bench = new Bench()
      .connect(0)
      .readings(0, 1000, 'bet:1', jittery(0))
      .readings(1000, 1400, 'bet:1', (time) => swing[(time - 1000) / 100] ?? 0)
      .readings(1400, 3000, 'bet:1', jittery(300))
      // A hand rests on the stack a moment: it changes nothing.
      .readings(3000, 3200, 'bet:1', 340)
      .readings(3200, 5000, 'bet:1', jittery(300))
      .readings(5000, 7000, 'bet:1', jittery(0));
    expect(settled(bench.run(7000))).toEqual(['bet:1 0 @500', 'bet:1 300 @1900', 'bet:1 0 @5500']);
  });

  it('follows each zone on its own', () => {
    const bench = new Bench()
      .connect(0)
      .readings(0, 2000, 'pot', (time) => (time < 800 ? 0 : 1250))
      .readings(50, 2000, 'bet:1', (time) => (time < 1000 ? 50 : 0));
    expect(settled(bench.run(2000))).toEqual([
      'pot 0 @500',
      'bet:1 50 @550',
      'pot 1250 @1300',
      'bet:1 0 @1550',
    ]);
  });

  it('judges stability on the sensor’s clock: a burst delivered late settles the same', () => {
    const bench = new Bench().connect(0).readings(0, 1000, 'pot', 200);
    for (let i = 0; i < 8; i++) {
      bench.at(3000, () =>
        bench.incoming.next({
          topic: `${BASE}/reading`,
          payload: Buffer.from(
            JSON.stringify({ seq: 4 + i, sensorTime: BOOT + 1000 + i * 100, zone: 'pot', amount: 900 }),
          ),
          retain: false,
        }),
      );
    }
    const events = bench.run(3000);
    expect(settled(events)).toEqual(['pot 200 @500', 'pot 900 @1500']);
  });

  it('refuses an amount settling below zero: the zone was tared with chips on it', () => {
    const bench = new Bench({ resolution: 25, tolerance: 10 }).connect(0).readings(0, 1000, 'pot', -50);
    expect(rejections(bench.run(1000))).toEqual([
      'pot settled at -50, below zero: tare the zone while it is empty',
    ]);
    expect(settled(bench.events)).toEqual([]);
  });

  it('rounds to the table’s smallest chip, and reads a zone jittering around 0 as 0', () => {
    const settler = new ZoneSettler({ stableMs: 200, tolerance: 10, resolution: 25 });
    expect(settler.reading('pot', -0.4, 0)).toEqual({ settled: false });
    expect(settler.reading('pot', 0.1, 200)).toEqual({ settled: true, amount: 0, previous: null });
    expect(Object.is(0, (settler.reading('pot', 0, 300) as { amount?: number }).amount ?? 0)).toBe(true);
    settler.reading('pot', 1246, 400);
    expect(settler.reading('pot', 1251, 600)).toEqual({ settled: true, amount: 1250, previous: 0 });
    settler.restart();
    settler.reading('pot', 1250, 0);
    expect(settler.reading('pot', 1250, 200)).toEqual({ settled: false });
  });
});

describe('chip-sensors driver: status', () => {
  it('goes offline with the sensor’s last will, and back online at its next hello', () => {
    const bench = new Bench()
      .connect(0)
      .readings(0, 1000, 'pot', 300)
      .raw(1000, 'status', '{"state":"offline","reason":"connection lost"}', true)
      .readings(1100, 1300, 'pot', 300)
      .connect(2000)
      .readings(2000, 3000, 'pot', 500);
    const events = bench.run(3000);
    expect(statuses(events).slice(2)).toEqual([
      'online @0: sensor CS-0042, firmware 1.4.0',
      'offline @1000: sensor CS-0042 is offline: connection lost',
      'online @2000: sensor CS-0042, firmware 1.4.0',
    ]);
    expect(rejections(events)).toEqual(['messages after it said it is offline are ignored']);
    expect(settled(events)).toEqual(['pot 300 @500', 'pot 500 @2500']);
  });

  it('goes offline when nothing is heard for silenceMs, and online again at the next message', () => {
    const bench = new Bench({ silenceMs: 1000 })
      .connect(0)
      .readings(0, 500, 'pot', 300)
      .readings(3000, 3500, 'pot', 300);
    expect(statuses(bench.run(5000)).slice(3)).toEqual([
      'offline @1400: sensor CS-0042, firmware 1.4.0: nothing heard for 1000 ms',
      'online @3000: sensor CS-0042, firmware 1.4.0',
      'offline @4400: sensor CS-0042, firmware 1.4.0: nothing heard for 1000 ms',
    ]);
  });

  it('says when no sensor ever said hello', () => {
    const bench = new Bench({ silenceMs: 1000 }).at(0, () => bench.status$.next({ state: 'connected' }));
    expect(statuses(bench.run(2000)).at(-1)).toBe('offline @1000: no hello from the sensor within 1000 ms');
  });

  it('reports the sensor’s health', () => {
    const bench = new Bench()
      .connect(0)
      .stamped(100, 'health', { status: 'degraded', code: 2, detail: 'cell bet:3 drifting' })
      .stamped(200, 'health', { status: 'fault', code: 3, detail: 'cell bet:3 overloaded' })
      .stamped(300, 'health', { status: 'ok', code: 0, detail: '' });
    expect(statuses(bench.run(1000)).slice(3)).toEqual([
      'online @100: sensor CS-0042, firmware 1.4.0: degraded 2: cell bet:3 drifting',
      'fault @200: sensor CS-0042, firmware 1.4.0: fault 3: cell bet:3 overloaded',
      'online @300: sensor CS-0042, firmware 1.4.0',
    ]);
  });

  it('is offline while croupier’s own link to the broker is down', () => {
    const bench = new Bench().connect(0);
    bench.at(500, () =>
      bench.status$.next({ state: 'offline', reason: 'connect ECONNREFUSED 127.0.0.1:1883' }),
    );
    bench.connect(800);
    expect(statuses(bench.run(1000)).slice(3)).toEqual([
      'offline @500: broker: connect ECONNREFUSED 127.0.0.1:1883',
      'online @800: sensor CS-0042, firmware 1.4.0',
    ]);
  });

  it('completes when the link is closed for good', () => {
    const bench = new Bench().connect(0);
    let completed = false;
    bench.sensor.events.subscribe({ complete: () => (completed = true) });
    bench.at(100, () => {
      bench.status$.complete();
      bench.incoming.complete();
    });
    bench.run(200);
    expect(completed).toBe(true);
  });
});

describe('chip-sensors driver: tare', () => {
  it('publishes the command and reports a refusal, ignoring the broker’s echo of the command', async () => {
    const bench = new Bench().connect(0);
    bench.run(10);
    await bench.sensor.tare('bet:3');
    await bench.sensor.tare('pot');
    expect(bench.published).toEqual([
      { topic: `${BASE}/command`, payload: { id: 0, command: 'tare', zone: 'bet:3' }, options: { qos: 1 } },
      { topic: `${BASE}/command`, payload: { id: 1, command: 'tare', zone: 'pot' }, options: { qos: 1 } },
    ]);
    bench
      .raw(20, 'command', JSON.stringify({ id: 0, command: 'tare', zone: 'bet:3' }))
      .stamped(30, 'reply', { id: 0, ok: true })
      .stamped(40, 'reply', { id: 1, ok: false, error: 'fault' })
      .stamped(50, 'reply', { id: 1, ok: true });
    const events = bench.run(100);
    expect(rejections(events)).toEqual([
      'the sensor refused to tare pot: fault',
      'a reply to command 1, which croupier did not send',
    ]);
    expect(bench.sensor.counters()).toMatchObject({ received: 4, malformed: 0, refused: 1 });
  });

  it('will not tare a zone the config does not take from the sensor', async () => {
    await expect(new Bench().sensor.tare('tray')).rejects.toThrow(
      'tray is not among the zones chip sensor chips-1 serves',
    );
  });
});
