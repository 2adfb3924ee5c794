import { describe, expect, it } from 'vitest';
import { BadgeTyping } from '../../../../devices/hid-keypad/badge.js';
import { BootKeyboard } from '../../../../devices/hid-keypad/boot-keyboard.js';
import { SimulatedKeyboard, simulatedHidDevices } from '../../../../simulators/hid-keypad/keyboard.js';
import type { HidHandle } from '../../../../src/io/hid.js';

/** Opens `keyboard` and keeps what it reports. */
function listen(handle: HidHandle) {
  const reports: number[][] = [];
  const lost: string[] = [];
  handle.read(
    (report) => reports.push([...report]),
    (error) => lost.push(error.message),
  );
  return { reports, lost };
}

const pad = (path = '/dev/hidraw-test', reportId: number | null = null) =>
  new SimulatedKeyboard({ vendorId: '1209', productId: '0001', path, reportId });

describe('simulated HID keyboards', () => {
  it('present a keypad and a badge reader with their USB ids, as a keyboard interface', async () => {
    const { bus } = simulatedHidDevices();
    expect(await bus.list()).toEqual([
      expect.objectContaining({
        vendorId: '1209',
        productId: '0001',
        path: '/dev/hidraw-sim0',
        usagePage: 1,
        usage: 6,
      }),
      expect.objectContaining({
        vendorId: '1209',
        productId: '0002',
        path: '/dev/hidraw-sim1',
        usagePage: 1,
        usage: 6,
      }),
    ]);
  });

  it('send a report on every key down and up, and the rollover report past six keys', () => {
    const keypad = pad();
    const { reports } = listen(keypad.open());
    keypad.press('Numpad4');
    for (const key of ['Numpad1', 'Numpad2', 'Numpad3', 'Numpad5', 'Numpad6', 'Numpad7', 'Numpad8'])
      keypad.keyDown(key);
    expect(reports).toEqual([
      [0, 0, 0x5c, 0, 0, 0, 0, 0],
      [0, 0, 0, 0, 0, 0, 0, 0],
      [0, 0, 0x59, 0, 0, 0, 0, 0],
      [0, 0, 0x59, 0x5a, 0, 0, 0, 0],
      [0, 0, 0x59, 0x5a, 0x5b, 0, 0, 0],
      [0, 0, 0x59, 0x5a, 0x5b, 0x5d, 0, 0],
      [0, 0, 0x59, 0x5a, 0x5b, 0x5d, 0x5e, 0],
      [0, 0, 0x59, 0x5a, 0x5b, 0x5d, 0x5e, 0x5f],
      [0, 0, 1, 1, 1, 1, 1, 1],
    ]);
    expect(() => keypad.press('Numpad11')).toThrow('no key is named Numpad11');
  });

  it('number their reports when told to', () => {
    const keypad = pad('/dev/hidraw-test', 1);
    const { reports } = listen(keypad.open());
    keypad.press('F13');
    expect(reports[0]).toEqual([1, 0, 0, 0x68, 0, 0, 0, 0, 0]);
  });

  it('type a badge as a reader does, which the driver’s decoding reads back', () => {
    const { badgeReader } = simulatedHidDevices();
    const { reports } = listen(badgeReader.open());
    badgeReader.typeBadge('04a1B2c3');
    const keyboard = new BootKeyboard(null);
    const typing = new BadgeTyping(500);
    const presses = reports.flatMap((report) => {
      const decoded = keyboard.decode(Uint8Array.from(report));
      return decoded.ok ? decoded.pressed : [];
    });
    expect(presses.filter((press) => press.shift).map((press) => press.key)).toEqual(['KeyB']);
    expect(presses.flatMap((press) => typing.press(press, 0))).toEqual([{ uid: '04A1B2C3' }]);
  });

  it('can be unplugged: open handles lose their read, it is no longer listed nor opened, until plugged back', async () => {
    const { bus, keypad } = simulatedHidDevices();
    const [info] = await bus.list();
    if (!info) throw new Error('no keypad listed');
    const handle = await bus.open(info);
    const { reports, lost } = listen(handle);
    keypad.unplug();
    keypad.press('Numpad1');
    expect(lost).toEqual(['could not read from HID device']);
    expect(reports).toEqual([]);
    expect((await bus.list()).map((device) => device.path)).toEqual(['/dev/hidraw-sim1']);
    await expect(bus.open(info)).rejects.toThrow(
      'cannot open device with path /dev/hidraw-sim0: No such file or directory',
    );
    await expect(handle.write(Uint8Array.of(0, 1))).rejects.toThrow('the device is closed or gone');
    keypad.plug();
    const again = listen(await bus.open(info));
    keypad.press('Numpad1');
    expect(again.reports).toHaveLength(2);
  });

  it('keep the output reports written to them, and the LEDs they light', async () => {
    const keypad = pad();
    expect(keypad.leds).toBeUndefined();
    const handle = keypad.open();
    await handle.write(Uint8Array.of(0, 0x01));
    await handle.write(Uint8Array.of(0, 0x05));
    expect(keypad.outputReports).toEqual([Uint8Array.of(0, 1), Uint8Array.of(0, 5)]);
    expect(keypad.leds).toEqual({ numLock: true, capsLock: false, scrollLock: true });
    await handle.close();
    await expect(handle.write(Uint8Array.of(0, 0))).rejects.toThrow();
  });
});
