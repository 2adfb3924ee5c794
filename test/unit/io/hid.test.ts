import { filter, firstValueFrom, timeout } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { SimulatedHidBus, SimulatedKeyboard } from '../../../simulators/hid-keypad/keyboard.js';
import {
  type HidBinding,
  type HidDeviceInfo,
  type HidLink,
  type HidLinkOptions,
  type HidStatus,
  HidUnavailableError,
  nodeHidBinding,
  openHidLink,
} from '../../../src/io/hid.js';

/*
 * The HID link against simulated keyboards on a simulated bus: an unplugged keyboard is no longer listed,
 * cannot be opened, and its open handles fail their read, as with node-hid's hidraw driver.
 */

const KEYPAD = { vendorId: '1209', productId: '0001' };
const keyboard = (path: string, extra: Partial<HidDeviceInfo> = {}) =>
  new SimulatedKeyboard({ ...KEYPAD, path, serialNumber: `S-${path.slice(-1)}`, ...extra });

let links: HidLink[] = [];

afterEach(async () => {
  await Promise.all(links.map((link) => link.close()));
  links = [];
});

function track(options: Partial<HidLinkOptions> & Pick<HidLinkOptions, 'binding'>) {
  const link = openHidLink({ device: KEYPAD, backoff: { initialMs: 5, maxMs: 20 }, ...options });
  links.push(link);
  const statuses: HidStatus[] = [];
  const reports: number[][] = [];
  link.status$.subscribe((status) => statuses.push(status));
  link.reports$.subscribe((report) => reports.push([...report]));
  const until = (state: HidStatus['state'], count = 1) =>
    firstValueFrom(
      link.status$.pipe(
        filter(
          (status) => status.state === state && statuses.filter((s) => s.state === state).length >= count,
        ),
        timeout(2000),
      ),
    );
  return { link, statuses, reports, until };
}

describe('HID link', () => {
  it('opens the device by its USB ids and delivers its input reports', async () => {
    const device = keyboard('/dev/hidraw0');
    const { until, reports, statuses } = track({ binding: new SimulatedHidBus([device]) });
    await until('open');
    device.press('Numpad1');
    expect(reports).toEqual([
      [0, 0, 0x59, 0, 0, 0, 0, 0],
      [0, 0, 0, 0, 0, 0, 0, 0],
    ]);
    expect(statuses).toEqual([
      { state: 'opening', device: 'USB device 1209:0001' },
      { state: 'open', device: 'USB device 1209:0001', path: '/dev/hidraw0' },
    ]);
  });

  it('reports a missing device with backoff until it is plugged in', async () => {
    const device = keyboard('/dev/hidraw0');
    device.unplug();
    const { until, statuses } = track({ binding: new SimulatedHidBus([device]) });
    await until('missing', 3);
    device.plug();
    await until('open');
    expect(statuses.filter((s) => s.state === 'missing').slice(0, 3)).toEqual(
      [5, 10, 20].map((retryInMs, i) => ({
        state: 'missing',
        device: 'USB device 1209:0001',
        reason: 'USB device 1209:0001 not found',
        attempt: i + 1,
        retryInMs,
      })),
    );
  });

  it('says the device is unplugged, and reopens it when it comes back', async () => {
    const device = keyboard('/dev/hidraw0');
    const { until, reports, statuses } = track({ binding: new SimulatedHidBus([device]) });
    await until('open');
    device.unplug();
    await until('missing');
    device.plug();
    await until('open', 2);
    device.press('Numpad2');
    expect(reports).toHaveLength(2);
    expect(statuses).toContainEqual({
      state: 'closed',
      device: 'USB device 1209:0001',
      reason: 'USB device 1209:0001 unplugged: could not read from HID device',
      retryInMs: 5,
    });
  });

  it('tells identical devices apart by serial number, and asks for it when they are not told apart', async () => {
    const bus = new SimulatedHidBus([keyboard('/dev/hidraw0'), keyboard('/dev/hidraw1')]);
    const chosen = track({ binding: bus, device: { ...KEYPAD, serialNumber: 'S-1' } });
    expect(await chosen.until('open')).toMatchObject({ path: '/dev/hidraw1' });
    const unsure = track({ binding: bus });
    expect(await unsure.until('missing')).toMatchObject({
      reason: '2 devices match USB device 1209:0001 (/dev/hidraw0, /dev/hidraw1): set its serialNumber',
    });
  });

  it('opens the interface with the usage asked for', async () => {
    const media = { path: '/dev/hidraw4', ...KEYPAD, usagePage: 0x0c, usage: 0x01 };
    const keys = { ...media, path: '/dev/hidraw5', usagePage: 0x01, usage: 0x06 };
    const opened: string[] = [];
    const binding = (devices: HidDeviceInfo[]): HidBinding => ({
      list: async () => devices,
      open: async (device) => {
        opened.push(device.path);
        return new SimulatedKeyboard({ ...KEYPAD, path: device.path }).open();
      },
    });
    const usage = { page: 0x01, id: 0x06 };
    await track({ binding: binding([media, keys, { ...keys }]), usage }).until('open');
    expect(opened).toEqual(['/dev/hidraw5']);
    expect(await track({ binding: binding([media]), usage }).until('missing')).toMatchObject({
      reason: 'USB device 1209:0001 has no HID interface with usage page 0x1, usage 0x6',
    });
  });

  it('explains a device it may not open, and a bus it cannot list', async () => {
    const info = { path: '/dev/hidraw0', ...KEYPAD };
    const denied: HidBinding = {
      list: async () => [info],
      open: async () => {
        throw new Error(
          "cannot open device with path /dev/hidraw0: Failed to open a device with path '/dev/hidraw0': Permission denied",
        );
      },
    };
    expect(await track({ binding: denied }).until('missing')).toMatchObject({
      reason:
        'permission denied on /dev/hidraw0: allow the user running croupier with a udev rule (devices/hid-keypad/README.md)',
    });
    const broken: HidBinding = {
      list: async () => {
        throw new Error('hid_enumerate failed');
      },
      open: denied.open,
    };
    expect(await track({ binding: broken }).until('missing')).toMatchObject({
      reason: 'cannot list HID devices to find USB device 1209:0001: hid_enumerate failed',
    });
  });

  it('writes output reports while open, and refuses them otherwise', async () => {
    const device = keyboard('/dev/hidraw0');
    const { link, until } = track({ binding: new SimulatedHidBus([device]) });
    await until('open');
    await link.write(Uint8Array.of(0, 1));
    expect(device.outputReports).toEqual([Uint8Array.of(0, 1)]);
    device.unplug();
    await until('missing');
    await expect(link.write(Uint8Array.of(0, 0))).rejects.toThrow(
      'cannot write to USB device 1209:0001: it is missing',
    );
  });

  it('closes for good when asked, with no further attempt', async () => {
    const device = keyboard('/dev/hidraw0');
    let opens = 0;
    const bus = new SimulatedHidBus([device]);
    const binding: HidBinding = {
      list: () => bus.list(),
      open: (info) => {
        opens++;
        return bus.open(info);
      },
    };
    const { link, until, statuses } = track({ binding });
    await until('open');
    await link.close();
    expect(statuses.at(-1)).toEqual({
      state: 'closed',
      device: 'USB device 1209:0001',
      reason: 'closed by caller',
      retryInMs: null,
    });
    device.unplug();
    device.plug();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(opens).toBe(1);
    expect(await firstValueFrom(link.status$, { defaultValue: 'completed' })).toBe('completed');
  });
});

describe('node-hid binding', () => {
  it('says HID is unavailable, and what to install, when node-hid’s native library does not load', async () => {
    let loads = 0;
    const binding = nodeHidBinding(async () => {
      loads++;
      throw new Error('libusb-1.0.so.0: cannot open shared object file: No such file or directory');
    });
    const failure = binding.list();
    await expect(failure).rejects.toBeInstanceOf(HidUnavailableError);
    await expect(failure).rejects.toThrow(
      'HID unavailable: libusb-1.0.so.0: cannot open shared object file: No such file or directory (install libusb-1.0-0)',
    );
    const { until } = track({ binding });
    expect(await until('missing')).toMatchObject({
      reason:
        'HID unavailable: libusb-1.0.so.0: cannot open shared object file: No such file or directory (install libusb-1.0-0)',
    });
    // Tried again each time: installing the library needs no restart.
    expect(loads).toBeGreaterThanOrEqual(2);
    await expect(
      nodeHidBinding(() => Promise.reject(new Error('libudev.so.1: cannot open'))).list(),
    ).rejects.toThrow('(install libudev1)');
  });
});
