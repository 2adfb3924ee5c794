import { Subject, VirtualTimeScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { SourceEvent } from '../../../src/domain/events.js';
import { floodGuard } from '../../../src/normaliser/flood-guard.js';

/** A device's events through its guard (10 a second, bursts of 20), on a clock the test moves. */
function guarded() {
  const scheduler = new VirtualTimeScheduler();
  const source = new Subject<SourceEvent>();
  const out: SourceEvent[] = [];
  const calms: number[] = [];
  source
    .pipe(floodGuard({ device: 'rfid-1', perSecond: 10, burst: 20, scheduler, calm: (n) => calms.push(n) }))
    .subscribe((event) => out.push(event));
  const read = (n: number): SourceEvent => ({
    type: 'card.gone',
    t: scheduler.now(),
    uid: `U${n}`,
    face: null,
    deck: null,
    zone: 'muck',
  });
  /** Moves the clock `ms` on, running what falls due on the way. */
  const wait = (ms: number) => {
    scheduler.schedule(() => undefined, ms);
    scheduler.maxFrames = scheduler.now() + ms;
    scheduler.flush();
  };
  /** `count` reads spread evenly over `ms`. */
  const send = (count: number, ms: number) => {
    for (let i = 0; i < count; i++) {
      source.next(read(i));
      wait(ms / count);
    }
  };
  const statuses = () =>
    out.filter((e) => e.type === 'device').map((e) => (e.type === 'device' ? e.status : ''));
  return { source, out, calms, send, wait, statuses, scheduler };
}

describe('a device flooding the table', () => {
  it('passes everything within its budget, bursts included', () => {
    const g = guarded();
    g.send(20, 0); // a burst
    g.wait(2000);
    g.send(50, 10_000); // 5 a second for 10 s
    expect(g.out).toHaveLength(70);
    expect(g.statuses()).toEqual([]);
  });

  it('is reported at fault at its first event over budget, and nothing more of it passes until it is calm', () => {
    const g = guarded();
    g.send(1000, 10_000); // 100 a second: ten times the budget
    const reads = g.out.filter((e) => e.type === 'card.gone');
    // The burst and what refilled while it went, then nothing: a flooding device is not trusted.
    expect(reads.length).toBeGreaterThanOrEqual(20);
    expect(reads.length).toBeLessThan(25);
    expect(g.statuses()).toEqual(['fault']);
    const fault = g.out.find((e) => e.type === 'device');
    expect(fault).toMatchObject({
      device: 'rfid-1',
      status: 'fault',
      detail: expect.stringContaining('flooding'),
    });
  });

  it('is back as its driver last said once it has kept within its budget for a full burst, the loss counted', () => {
    const g = guarded();
    g.source.next({
      type: 'device',
      t: 0,
      device: 'rfid-1',
      role: 'card-reader',
      status: 'online',
      detail: 'reader SN1, firmware 1.0',
    });
    g.send(300, 1000);
    g.wait(1000);
    expect(g.statuses()).toEqual(['online', 'fault']); // still refilling: 2 s make a full burst
    // A card reader cut off is a card reader down.
    expect(g.out.find((e) => e.type === 'device' && e.status === 'fault')).toMatchObject({
      role: 'card-reader',
    });
    g.wait(3000); // looked at again every 2 s
    expect(g.statuses()).toEqual(['online', 'fault', 'online']);
    expect(g.out.at(-1)).toMatchObject({ role: 'card-reader', detail: 'reader SN1, firmware 1.0' });
    expect(g.calms).toHaveLength(1);
    expect(g.calms[0]).toBeGreaterThan(270);
    const before = g.out.length;
    g.send(5, 1000);
    expect(g.out.length - before).toBe(5);
  });

  it('a flood that goes on keeps it out', () => {
    const g = guarded();
    g.send(2000, 60_000); // 33 a second for a minute
    expect(g.statuses()).toEqual(['fault']);
    expect(g.calms).toEqual([]);
  });
});
