import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decode, healthSchema, readingSchema, statusSchema } from '../../../devices/chip-sensors/protocol.js';
import { chipDriver } from '../../../fuzz/chip-driver.js';
import { chipMessages } from '../../../fuzz/chip-messages.js';
import { generatedInputs, MAX_REASON } from '../../../fuzz/harness.js';
import { Bench, HELLO, rejections, settled, statuses } from '../devices/chip-sensors/bench.js';

const reasonOf = (decoded: { ok: true } | { ok: false; reason: string }) =>
  decoded.ok ? 'accepted' : decoded.reason;

describe('chip sensor messages: hostile input', () => {
  it('accepts or refuses, with a bounded reason, every generated message', () => {
    fc.assert(
      fc.property(generatedInputs(chipMessages), (input) => chipMessages.check(input) !== undefined),
      {
        numRuns: 500,
      },
    );
  });

  it('does the same for any JSON value on any channel', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('status', 'reading', 'health', 'command', 'reply' as const),
        fc.jsonValue(),
        (channel, value) =>
          chipMessages.check({ channel, payload: Buffer.from(JSON.stringify(value) ?? '') }) !== undefined,
      ),
      { numRuns: 300 },
    );
  });

  it('cuts a refusal that would quote a hostile key or value whole', () => {
    const key = 'k'.repeat(20_000);
    const reason = reasonOf(
      decode(
        readingSchema,
        Buffer.from(JSON.stringify({ seq: 1, sensorTime: 1, zone: 'pot', amount: 1, [key]: 1 })),
      ),
    );
    expect(reason.length).toBeLessThan(400);
    expect(reason).toMatch(/^Unrecognized key: "kkkk+… \(20\d\d\d characters\)$/);
    const zone = reasonOf(
      decode(
        readingSchema,
        Buffer.from(JSON.stringify({ seq: 1, sensorTime: 1, zone: 'z'.repeat(20_000), amount: 1 })),
      ),
    );
    expect(zone).toMatch(/^zone: "zzz+… \(20\d\d\d characters\)$/);
  });

  it('lists ten problems at most, and counts the rest', () => {
    const zones = Array.from({ length: 5000 }, (_, i) => `zone-${i}`);
    const reason = reasonOf(
      decode(
        statusSchema,
        Buffer.from(
          JSON.stringify({ state: 'online', kind: 'chip-sensors', serial: 'S', firmware: '1', zones }),
        ),
      ),
    );
    expect(reason.split('; ')).toHaveLength(11);
    expect(reason).toMatch(/; and 4990 more problems$/);
    expect(reason.length).toBeLessThan(MAX_REASON);
  });

  it('refuses JSON nested deeper than any parser’s stack, invalid UTF-8 and numbers out of range', () => {
    expect(reasonOf(decode(healthSchema, Buffer.from(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)))).toBe(
      'Invalid input: expected object, received array',
    );
    expect(reasonOf(decode(healthSchema, Buffer.from([0x7b, 0xff, 0xfe, 0x7d])))).toMatch(/^not JSON \(/);
    const health = '{"seq":4294967296,"sensorTime":1e999,"status":"ok","code":-1,"detail":""}';
    expect(reasonOf(decode(healthSchema, Buffer.from(health)))).toBe(
      'seq: Too big: expected number to be <=4294967295; sensorTime: Invalid input: expected number, received Infinity; code: Too small: expected number to be >=0',
    );
  });
});

describe('chip sensor driver: hostile input', () => {
  it('refuses garbage with a counted reason and still takes the next health report, whatever the messages', () => {
    fc.assert(
      fc.property(generatedInputs(chipDriver), (input) => chipDriver.check(input) !== undefined),
      {
        numRuns: 200,
      },
    );
  });

  it('faults once at a flood of hellos of other serials, counting each, and acts on nothing until a goodbye', () => {
    const bench = new Bench().connect(0);
    for (let time = 100; time < 600; time += 5)
      bench.raw(time, 'status', JSON.stringify({ ...HELLO, serial: `CLONE-${time}` }), true);
    bench.readings(0, 1000, 'pot', 300);
    const events = bench.run(2000);
    expect(statuses(events).filter((status) => status.startsWith('fault'))).toHaveLength(1);
    expect(settled(events)).toEqual([]);
    expect(bench.sensor.counters()).toMatchObject({ contested: 100, readings: 1 });
  });

  it('settles a zone through a flood of malformed readings beside it', () => {
    const bench = new Bench().connect(0).readings(0, 1000, 'pot', 300);
    for (let time = 0; time < 1000; time += 2)
      bench.raw(time, 'reading', `{"seq":${time},"zone":"pot","amount":"lots"`);
    const events = bench.run(2000);
    expect(settled(events)).toEqual(['pot 300 @500']);
    expect(rejections(events)).toHaveLength(500);
    expect(bench.sensor.counters()).toMatchObject({ malformed: 500, readings: 10 });
  });
});
