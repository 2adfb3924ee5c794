import { SerialPortMock } from 'serialport';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  openSerialLink,
  type SerialBinding,
  type SerialLink,
  type SerialLinkOptions,
  type SerialStatus,
} from '../../../src/io/serial.js';

/*
 * Reconnect logic against node-serialport's mock binding, wrapped so devices can be unplugged: an unplugged
 * path is no longer listed, cannot be opened, and its open port fails its pending read.
 */

const MockBinding = SerialPortMock.binding;
type MockPort = Awaited<ReturnType<typeof MockBinding.open>>;

const FTDI = { vendorId: '0403', productId: '6001' };

function usbBus() {
  MockBinding.reset();
  const plugged = new Set<string>();
  const opened = new Map<string, MockPort>();
  const binding: SerialBinding = {
    list: async () => (await MockBinding.list()).filter((p) => plugged.has(p.path)),
    open: async (options) => {
      if (!plugged.has(options.path)) {
        throw new Error(`Error: No such file or directory, cannot open ${options.path}`);
      }
      const port = await MockBinding.open(options);
      opened.set(options.path, port);
      return port;
    },
  };
  return {
    binding,
    opened,
    plug(path: string, ids: { vendorId: string; productId: string } = FTDI) {
      MockBinding.createPort(path, ids);
      plugged.add(path);
    },
    async unplug(path: string) {
      plugged.delete(path);
      await opened.get(path)?.close();
    },
  };
}

let links: SerialLink[] = [];

afterEach(async () => {
  await Promise.all(links.map((link) => link.close()));
  links = [];
});

function track(options: SerialLinkOptions) {
  const link = openSerialLink(options);
  links.push(link);
  const statuses: SerialStatus[] = [];
  const chunks: Uint8Array[] = [];
  link.status$.subscribe((s) => statuses.push(s));
  link.data$.subscribe((chunk) => chunks.push(chunk));
  return { link, statuses, received: () => Buffer.concat(chunks) };
}

async function until(what: () => string, condition: () => boolean): Promise<void> {
  const deadline = performance.now() + 5000;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what()}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

function untilStatus(t: { statuses: SerialStatus[] }, match: (s: SerialStatus) => boolean, from = 0) {
  return until(
    () => `a status after #${from} (seen ${JSON.stringify(t.statuses)})`,
    () => t.statuses.slice(from).some(match),
  );
}

describe('serial link (mock binding)', () => {
  let bus: ReturnType<typeof usbBus>;
  beforeEach(() => {
    bus = usbBus();
  });

  it('opens a device found by its USB ids, whatever their case, and carries bytes both ways', async () => {
    bus.plug('/dev/ttyMOCK0', { vendorId: '10c4', productId: 'ea60' });
    const device = { vendorId: '10C4', productId: 'EA60' };
    const t = track({ device, baudRate: 9600, binding: bus.binding });
    await untilStatus(t, (s) => s.state === 'open');
    expect(t.statuses).toEqual([
      { state: 'opening', device: 'USB device 10C4:EA60' },
      { state: 'open', device: 'USB device 10C4:EA60', path: '/dev/ttyMOCK0' },
    ]);

    const port = bus.opened.get('/dev/ttyMOCK0');
    expect(port?.openOptions.baudRate).toBe(9600);
    port?.emitData(Buffer.from([0, 1, 254, 255]));
    await until(
      () => 'the bytes',
      () => t.received().length === 4,
    );
    expect([...t.received()]).toEqual([0, 1, 254, 255]);

    await t.link.write(Uint8Array.from([7, 8, 9]));
    expect([...(port?.lastWrite ?? [])]).toEqual([7, 8, 9]);
  });

  it('after an unplug, reports closed and finds the device again by its USB ids at its new path', async () => {
    bus.plug('/dev/ttyMOCK0');
    const t = track({
      device: FTDI,
      baudRate: 115_200,
      binding: bus.binding,
      backoff: { initialMs: 1, maxMs: 4 },
    });
    await untilStatus(t, (s) => s.state === 'open');

    await bus.unplug('/dev/ttyMOCK0');
    await untilStatus(t, (s) => s.state === 'error');
    bus.plug('/dev/ttyMOCK1');
    await untilStatus(t, (s) => s.state === 'open', 2);

    const [, , closed, error] = t.statuses;
    expect(closed).toEqual({
      state: 'closed',
      device: 'USB device 0403:6001',
      reason: 'USB device 0403:6001 disconnected: port is closed',
      retryInMs: 1,
    });
    expect(error).toMatchObject({ state: 'error', reason: 'USB device 0403:6001 not found', attempt: 2 });
    expect(t.statuses.at(-1)).toEqual({
      state: 'open',
      device: 'USB device 0403:6001',
      path: '/dev/ttyMOCK1',
    });
  });

  it('refuses to guess between identical devices and picks one by its serial number', async () => {
    bus.plug('/dev/ttyMOCK0');
    bus.plug('/dev/ttyMOCK1');
    const ambiguous = track({ device: FTDI, baudRate: 9600, binding: bus.binding });
    await untilStatus(ambiguous, (s) => s.state === 'error');
    expect(ambiguous.statuses[1]).toMatchObject({
      reason: '2 devices match USB device 0403:6001 (/dev/ttyMOCK0, /dev/ttyMOCK1): set its serialNumber',
    });

    // The mock numbers its ports' serial numbers from 1.
    const chosen = track({ device: { ...FTDI, serialNumber: '2' }, baudRate: 9600, binding: bus.binding });
    await untilStatus(chosen, (s) => s.state === 'open');
    expect(chosen.link.status).toMatchObject({
      device: 'USB device 0403:6001 serial 2',
      path: '/dev/ttyMOCK1',
    });
  });

  it('says so when serial devices cannot be listed', async () => {
    const binding: SerialBinding = {
      list: () => Promise.reject(new Error('spawn udevadm ENOENT')),
      open: bus.binding.open,
    };
    const t = track({ device: FTDI, baudRate: 9600, binding });
    await untilStatus(t, (s) => s.state === 'error');
    expect(t.link.status).toMatchObject({
      reason:
        'cannot list serial devices to find USB device 0403:6001: spawn udevadm ENOENT (is udev installed?)',
    });
  });

  it('doubles the delay up to its cap, and starts again from the first delay after a successful open', async () => {
    const t = track({
      device: { path: '/dev/ttyMOCK0' },
      baudRate: 9600,
      binding: bus.binding,
      backoff: { initialMs: 2, maxMs: 16 },
    });
    await until(
      () => 'six failed opens',
      () => t.statuses.length >= 7,
    );
    expect(
      t.statuses.slice(1, 7).map((s) => (s.state === 'error' ? [s.attempt, s.retryInMs] : s.state)),
    ).toEqual([
      [1, 2],
      [2, 4],
      [3, 8],
      [4, 16],
      [5, 16],
      [6, 16],
    ]);
    expect(t.statuses[1]).toMatchObject({ reason: 'device /dev/ttyMOCK0 not found' });

    bus.plug('/dev/ttyMOCK0');
    await untilStatus(t, (s) => s.state === 'open');
    const reopened = t.statuses.length;
    await bus.unplug('/dev/ttyMOCK0');
    await untilStatus(t, (s) => s.state === 'closed', reopened);
    expect(t.statuses[reopened]).toMatchObject({ state: 'closed', retryInMs: 2 });
  });

  it('close() during an open closes the port it gets, reports nothing more and completes', async () => {
    bus.plug('/dev/ttyMOCK0');
    const t = track({ device: { path: '/dev/ttyMOCK0' }, baudRate: 9600, binding: bus.binding });
    let completed = false;
    t.link.status$.subscribe({ complete: () => (completed = true) });
    await t.link.close();

    expect(t.statuses.map((s) => s.state)).toEqual(['opening', 'closed']);
    expect(bus.opened.get('/dev/ttyMOCK0')?.isOpen).toBe(false);
    expect(completed).toBe(true);
    await expect(t.link.write(Uint8Array.of(1))).rejects.toThrow(
      'cannot write to device /dev/ttyMOCK0: it is closed',
    );
  });

  it('keeps writes in order, one at a time as the binding requires', async () => {
    bus.plug('/dev/ttyMOCK0');
    const t = track({ device: { path: '/dev/ttyMOCK0' }, baudRate: 9600, binding: bus.binding });
    await untilStatus(t, (s) => s.state === 'open');
    const port = bus.opened.get('/dev/ttyMOCK0');
    const seen: number[] = [];
    const write = port?.write.bind(port);
    if (!port || !write) throw new Error('no mock port');
    port.write = async (buffer) => {
      // The mock binding rejects a write while another is in flight.
      await write(buffer);
      seen.push(...buffer);
    };
    await Promise.all([1, 2, 3].map((n) => t.link.write(Uint8Array.of(n))));
    expect(seen).toEqual([1, 2, 3]);
  });
});
