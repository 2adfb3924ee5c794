import { Subject, VirtualTimeScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { bootReport, usageOf } from '../../../../devices/hid-keypad/boot-keyboard.js';
import { hidKeypad, type KeypadEvent, type KeypadLinkState } from '../../../../devices/hid-keypad/driver.js';
import { parseHidKeypadConfig } from '../../../../devices/hid-keypad/manifest.js';

const USB = { vendorId: '1209', productId: '0001' };

/** A driver on a link made of subjects, on a virtual clock. */
class Bench {
  readonly scheduler = new VirtualTimeScheduler();
  readonly reports = new Subject<Uint8Array>();
  readonly state = new Subject<KeypadLinkState>();
  readonly written: number[][] = [];
  readonly keypad;
  readonly events: KeypadEvent[] = [];

  constructor(section: Record<string, unknown> = {}) {
    const config = parseHidKeypadConfig({ id: 'keypad-1', usb: USB, ...section });
    const link = {
      reports: this.reports,
      state: this.state,
      write: (r: Uint8Array) => this.written.push([...r]),
    };
    this.keypad = hidKeypad(link, config, this.scheduler);
    this.keypad.events.subscribe((event) => this.events.push(event));
  }

  at(t: number, step: () => void): this {
    this.scheduler.schedule(step, t - this.scheduler.now());
    this.scheduler.flush();
    return this;
  }

  up(t = 0): this {
    return this.at(t, () => this.state.next({ up: true, where: '/dev/hidraw3' }));
  }

  /** Presses and releases each key. */
  keys(t: number, ...keys: string[]): this {
    return this.at(t, () => {
      for (const key of keys) {
        this.reports.next(bootReport([usageOf(key) as number]));
        this.reports.next(bootReport([]));
      }
    });
  }

  of<K extends KeypadEvent['kind']>(kind: K): Extract<KeypadEvent, { kind: K }>[] {
    return this.events.filter((event): event is Extract<KeypadEvent, { kind: K }> => event.kind === kind);
  }
}

describe('hid-keypad driver', () => {
  it('turns key presses into the dealer’s entries, stamped with the time of their last key', () => {
    const bench = new Bench()
      .up()
      .keys(100, 'Numpad3', 'NumpadDivide')
      .keys(900, 'Numpad5', 'NumpadAdd', 'Numpad3');
    bench.keys(1500, 'Numpad0', 'Numpad0', 'NumpadEnter').keys(2000, 'F13');
    expect(bench.of('entry')).toEqual([
      { kind: 'entry', entry: { kind: 'action', seat: 3, act: 'fold' }, t: 100 },
      { kind: 'entry', entry: { kind: 'action', seat: 5, act: 'raise', amount: 300 }, t: 1500 },
      { kind: 'entry', entry: { kind: 'dealer', input: 'call-floor' }, t: 2000 },
    ]);
    expect(bench.keypad.counters()).toEqual({
      reports: 18,
      presses: 9,
      accepted: 3,
      refused: { report: 0, key: 0, entry: 0, badge: 0 },
    });
  });

  it('refuses and counts bad reports, keys not in the map and bad entries, and goes on', () => {
    const bench = new Bench().up();
    bench.at(10, () => bench.reports.next(Uint8Array.of(1, 2, 3)));
    bench.keys(20, 'KeyQ', 'NumpadMultiply', 'Numpad4', 'NumpadMultiply');
    expect(bench.of('rejected')).toEqual([
      { kind: 'rejected', what: 'report', reason: 'a boot keyboard report is 8 bytes, got 3', t: 10 },
      { kind: 'rejected', what: 'key', reason: 'KeyQ is not in the key map', t: 20 },
      {
        kind: 'rejected',
        what: 'entry',
        reason: 'check needs a seat: key the seat number, then check',
        t: 20,
      },
    ]);
    expect(bench.of('entry')).toEqual([
      { kind: 'entry', entry: { kind: 'action', seat: 4, act: 'check' }, t: 20 },
    ]);
    expect(bench.keypad.counters()?.refused).toEqual({ report: 1, key: 1, entry: 1, badge: 0 });
  });

  it('is online while the link is up, says why it is not, and lights NumLock each time it comes back', () => {
    const bench = new Bench().up(0);
    bench.at(50, () => bench.state.next({ up: false, reason: 'USB device 1209:0001 unplugged: gone' }));
    bench.at(60, () => bench.state.next({ up: false, reason: 'USB device 1209:0001 unplugged: gone' }));
    bench.at(70, () => bench.state.next({ up: false, reason: 'USB device 1209:0001 not found' }));
    bench.up(500);
    expect(bench.of('status')).toEqual([
      { kind: 'status', status: 'online', detail: 'keypad on /dev/hidraw3', t: 0 },
      { kind: 'status', status: 'offline', detail: 'link down: USB device 1209:0001 unplugged: gone', t: 50 },
      { kind: 'status', status: 'offline', detail: 'link down: USB device 1209:0001 not found', t: 70 },
      { kind: 'status', status: 'online', detail: 'keypad on /dev/hidraw3', t: 500 },
    ]);
    expect(bench.written).toEqual([
      [0, 0x01],
      [0, 0x01],
    ]);
  });

  it('takes a key held when the link went down as a new press when it comes back', () => {
    const bench = new Bench().up();
    bench.at(10, () => bench.reports.next(bootReport([usageOf('Numpad7') as number])));
    bench.at(20, () => bench.state.next({ up: false, reason: 'unplugged' }));
    bench.up(30);
    bench.at(40, () => bench.reports.next(bootReport([usageOf('Numpad7') as number])));
    bench.keys(50, 'NumpadDivide');
    expect(bench.of('entry')).toEqual([]);
    expect(bench.of('rejected')).toEqual([
      { kind: 'rejected', what: 'entry', reason: 'fold after 77: a seat is 1 to 10', t: 50 },
    ]);
  });

  it('sets the LEDs it is asked to, now and when the keypad comes back, in the numbered report', () => {
    const bench = new Bench({ reportId: 1 });
    bench.keypad.setLeds({ numLock: true, capsLock: true });
    bench.up();
    bench.keypad.setLeds({ scrollLock: true });
    expect(bench.written).toEqual([
      [1, 0x03],
      [1, 0x04],
    ]);
  });

  it('in badge mode gives the badge read as a driver event only', () => {
    const bench = new Bench({ mode: 'badge' }).up();
    bench.keys(100, 'Digit0', 'Digit4', 'KeyA', 'Digit1', 'KeyB', 'Digit2', 'Enter');
    bench.keys(5000, 'Digit9', 'Tab');
    expect(bench.events.filter((event) => event.kind !== 'status')).toEqual([
      { kind: 'badge', uid: '04A1B2', t: 100 },
      { kind: 'rejected', what: 'badge', reason: 'badge read dropped: the badge reader typed Tab', t: 5000 },
    ]);
    expect(bench.of('status')[0]?.detail).toBe('badge on /dev/hidraw3');
    expect(bench.keypad.counters()).toMatchObject({ accepted: 1, refused: { badge: 1 } });
  });
});
