import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { filter, firstValueFrom, type Observable, timeout, VirtualTimeScheduler } from 'rxjs';
import { describe, expect, it, onTestFinished } from 'vitest';
import { hidKeypad, type KeypadEvent } from '../../devices/hid-keypad/driver.js';
import { keypadLinkFromHid, openKeypadHid } from '../../devices/hid-keypad/hid-link.js';
import { type HidKeypadConfig, parseHidKeypadConfig } from '../../devices/hid-keypad/manifest.js';
import { entryOf, keysOf } from '../../simulators/hid-keypad/from-scenario.js';
import {
  SIMULATED_BADGE_READER_USB,
  SIMULATED_KEYPAD_USB,
  simulatedHidDevices,
} from '../../simulators/hid-keypad/keyboard.js';
import type { DomainEvent } from '../../src/domain/events.js';
import { type HidBinding, type HidStatus, nodeHidBinding } from '../../src/io/hid.js';
import { type HidKeypadDomainEvent, toDomain } from '../../src/normaliser/hid-keypad.js';
import { parseScenarioText } from '../../src/scenario/load.js';
import { replayEvents } from '../../src/table/table.js';

/*
 * The keypad path end to end: simulated keyboards on a simulated USB bus, croupier's HID link over them,
 * the keypad driver, and the mapping to domain events; then the real node-hid binding on this machine.
 */

const KEYPAD = parseHidKeypadConfig({ id: 'keypad-1', usb: SIMULATED_KEYPAD_USB });
const BADGE_READER = parseHidKeypadConfig({ id: 'badge-1', mode: 'badge', usb: SIMULATED_BADGE_READER_USB });

/** Everything that comes out of one device's path, and a wait for what is yet to come. */
function start(config: HidKeypadConfig, binding?: HidBinding, clock?: VirtualTimeScheduler) {
  const hid = openKeypadHid(config, binding);
  const keypad = hidKeypad(keypadLinkFromHid(hid), config, clock);
  const driver: KeypadEvent[] = [];
  const domain: HidKeypadDomainEvent[] = [];
  // One subscription: the driver's first status comes as it is subscribed.
  const subscription = keypad.events.subscribe((event) => {
    driver.push(event);
    domain.push(...toDomain(event, config.id));
  });
  onTestFinished(async () => {
    subscription.unsubscribe();
    await hid.close();
  });
  return { hid, keypad, driver, domain };
}

const reached = (status$: Observable<HidStatus>, state: HidStatus['state']) =>
  firstValueFrom(
    status$.pipe(
      filter((status) => status.state === state),
      timeout(5000),
    ),
  );

const devices = (events: readonly HidKeypadDomainEvent[]) =>
  events.flatMap((event) => (event.type === 'device' ? [`${event.status}: ${event.detail}`] : []));
const keyed = (events: readonly HidKeypadDomainEvent[]) =>
  events.filter((event) => event.type !== 'device').map(({ t: _t, ...event }) => event);

describe('simulated keypad and badge reader → HID link → driver → domain events', () => {
  it('keys the dealer’s entries, and comes back with its LEDs after an unplug', async () => {
    const { bus, keypad } = simulatedHidDevices();
    const { hid, domain } = start(KEYPAD, bus);
    await reached(hid.status$, 'open');
    keypad.press(
      'Numpad3',
      'NumpadDivide',
      'Numpad5',
      'NumpadAdd',
      'Numpad4',
      'Numpad0',
      'Numpad0',
      'NumpadEnter',
    );
    keypad.press('Numpad2', 'F17');
    keypad.unplug();
    keypad.press('Numpad6', 'NumpadMultiply');
    await reached(hid.status$, 'missing');
    keypad.plug();
    await reached(hid.status$, 'open');
    keypad.press('Numpad6', 'NumpadMultiply', 'F13');
    expect(keyed(domain)).toEqual([
      { type: 'action', seat: 3, act: 'fold' },
      { type: 'action', seat: 5, act: 'raise', amount: 400 },
      { type: 'dealer', input: 'exposed', zone: 'seat:2', by: 'dealer' },
      { type: 'action', seat: 6, act: 'check' },
      { type: 'dealer', input: 'call-floor' },
    ]);
    expect(devices(domain)).toEqual([
      'offline: link down: opening USB device 1209:0001',
      'online: keypad on /dev/hidraw-sim0',
      'offline: link down: USB device 1209:0001 unplugged: could not read from HID device',
      'offline: link down: USB device 1209:0001 not found',
      'online: keypad on /dev/hidraw-sim0',
    ]);
    expect(keypad.outputReports).toEqual([Uint8Array.of(0, 0x01), Uint8Array.of(0, 0x01)]);
    expect(domain.every((event) => event.type !== 'device' || event.device === 'keypad-1')).toBe(true);
  });

  it('reads a badge as a driver event only, beside the keypad on the same bus', async () => {
    const { bus, keypad, badgeReader } = simulatedHidDevices();
    const reader = start(BADGE_READER, bus);
    const dealer = start(KEYPAD, bus);
    await reached(reader.hid.status$, 'open');
    await reached(dealer.hid.status$, 'open');
    badgeReader.typeBadge('04A1B2C3D4');
    keypad.press('F16');
    expect(reader.driver.filter((event) => event.kind === 'badge')).toEqual([
      { kind: 'badge', uid: '04A1B2C3D4', t: expect.any(Number) },
    ]);
    expect(keyed(reader.domain)).toEqual([]);
    expect(devices(reader.domain).at(-1)).toBe('online: badge on /dev/hidraw-sim1');
    expect(keyed(dealer.domain)).toEqual([{ type: 'dealer', input: 'hand-end' }]);
  });
});

describe('scenario corpus keyed on the simulated keypad', () => {
  const ROOT = join(import.meta.dirname, '../..');
  const files = [join(ROOT, 'test/scenarios'), join(ROOT, '../shared/scenarios')].flatMap((folder) =>
    readdirSync(folder, { recursive: true, encoding: 'utf8' })
      .filter((name) => ['.yaml', '.json'].includes(extname(name)))
      .sort()
      .map((name) => join(folder, name)),
  );

  it('gives the table what the files say: the same incidents when the keyable events are keyed', async () => {
    const { bus, keypad } = simulatedHidDevices();
    const clock = new VirtualTimeScheduler();
    const { hid, domain } = start(KEYPAD, bus, clock);
    await reached(hid.status$, 'open');
    let keyedEvents = 0;
    for (const file of files) {
      const scenario = parseScenarioText(readFileSync(file, 'utf8'), file);
      const events = scenario.events.map((event): DomainEvent => {
        const entry = entryOf(event);
        if (entry === null || typeof entry === 'string') return event;
        clock.frame = event.t;
        const before = domain.length;
        keypad.press(...keysOf(entry, KEYPAD.mode === 'keypad' ? KEYPAD.keys : {}));
        const made = domain.slice(before);
        expect(made, `${file} event ${event.seq}`).toHaveLength(1);
        keyedEvents++;
        return { ...(made[0] as HidKeypadDomainEvent), seq: event.seq };
      });
      const { seats, orderWindowMs } = scenario.table;
      const config = { seats, orderWindowMs, profile: scenario.profile };
      expect(replayEvents(config, events), file).toEqual(replayEvents(config, scenario.events));
    }
    expect(keyedEvents).toBeGreaterThan(1000);
  });
});

describe('the real node-hid binding on this machine', () => {
  it('loads, and lists no simulated device', async () => {
    const listed = await nodeHidBinding().list();
    expect(Array.isArray(listed)).toBe(true);
    expect(listed.filter((device) => device.vendorId === '1209' && device.productId === '0001')).toEqual([]);
  });

  it('starts a keypad that is not plugged in and says clearly that it is missing', async () => {
    const { hid, domain } = start(KEYPAD);
    const missing = await reached(hid.status$, 'missing');
    expect(missing).toMatchObject({ reason: 'USB device 1209:0001 not found' });
    expect(devices(domain)).toEqual([
      'offline: link down: opening USB device 1209:0001',
      'offline: link down: USB device 1209:0001 not found',
    ]);
  });
});
