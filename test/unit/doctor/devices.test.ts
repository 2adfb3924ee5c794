import { describe, expect, it } from 'vitest';
import { blocks, passed } from '../../../src/doctor/check.js';
import { checkDevices, usbSerialPorts } from '../../../src/doctor/devices.js';
import type { DoctorSystem } from '../../../src/doctor/system.js';
import { HidUnavailableError } from '../../../src/io/hid.js';
import { config, errno, fakeSystem } from './fake-system.js';

const RULES = '/etc/udev/rules.d/99-croupier.rules';
const BY_ID = '/dev/serial/by-id';

const reader = (link: object) => config({ devices: { rfid: [{ id: 'rfid-1', link }] } });
const keypad = (usb: object, mode?: 'badge') =>
  config({ devices: { keypad: [{ id: 'keypad', usb, ...(mode && { mode }) }] } });

/** udev's view of USB serial ports: by-id name → `udevadm info` properties. */
function serialPorts(ports: Record<string, string>): Partial<DoctorSystem> {
  return {
    readdir: async (path) => {
      expect(path).toBe(BY_ID);
      return Object.keys(ports);
    },
    exec: async (command, args) => {
      expect(command).toBe('udevadm');
      const name = args.at(-1)?.replace(`--name=${BY_ID}/`, '') ?? '';
      return { code: 0, stdout: ports[name] ?? '' };
    },
  };
}

const FTDI_A = 'ID_VENDOR_ID=0403\nID_MODEL_ID=6001\nID_SERIAL_SHORT=A50285BI\n';
const FTDI_B = 'ID_VENDOR_ID=0403\nID_MODEL_ID=6001\nID_SERIAL_SHORT=B7\n';
const PICO = 'DEVNAME=/dev/ttyACM0\nID_VENDOR_ID=2e8a\nID_MODEL_ID=000a\nID_SERIAL_SHORT=E6614C311B\n';

describe('doctor: serial devices by path', () => {
  it('passes a port that is there and croupier may open', async () => {
    const opened: string[] = [];
    const system = fakeSystem({ access: async (path, mode) => void opened.push(`${path} ${mode}`) });
    expect(await checkDevices(reader({ path: '/dev/croupier/reader' }), system)).toEqual([
      passed('reader rfid-1', '/dev/croupier/reader'),
    ]);
    expect(opened).toEqual(['/dev/croupier/reader read-write']);
  });

  it('says to plug the reader in, and where its ids go, when its udev name is missing', async () => {
    const system = fakeSystem({ access: async () => Promise.reject(errno('ENOENT')) });
    expect(await checkDevices(reader({ path: '/dev/croupier/reader' }), system)).toEqual([
      blocks(
        'reader rfid-1',
        '/dev/croupier/reader is not there',
        `plug the reader board in (and its power); if it is in, \`lsusb\` shows its ids: ${RULES} must name them (sudo bash deploy/install.sh --reader VID:PID)`,
      ),
    ]);
  });

  it('says where to look for a missing port named otherwise', async () => {
    const system = fakeSystem({ access: async () => Promise.reject(errno('ENOENT')) });
    const shuffler = config({ devices: { shuffler: [{ id: 'shuffler', link: { path: '/dev/ttyUSB0' } }] } });
    expect(await checkDevices(shuffler, system)).toEqual([
      blocks(
        'shuffler shuffler',
        '/dev/ttyUSB0 is not there',
        "plug the shuffler's USB-serial adapter in (and its power); `lsusb` lists what the Pi sees",
      ),
    ]);
  });

  it('points at the udev rule when croupier may not open the port', async () => {
    const system = fakeSystem({ access: async () => Promise.reject(errno('EACCES')) });
    expect(await checkDevices(reader({ path: '/dev/croupier/reader' }), system)).toEqual([
      blocks(
        'reader rfid-1',
        "croupier's user may not open /dev/croupier/reader",
        `${RULES} gives it to the croupier group: sudo udevadm control --reload-rules && sudo udevadm trigger, and run doctor as croupier (sudo croupier doctor)`,
      ),
    ]);
  });

  it('passes a bridged device to the broker check', async () => {
    expect(await checkDevices(reader({ type: 'bridge' }), fakeSystem())).toEqual([
      passed('reader rfid-1', 'on a croupier bridge: the broker check covers it'),
    ]);
  });
});

describe('doctor: serial devices by USB ids', () => {
  it("reads each port's ids from udev", async () => {
    const system = fakeSystem(serialPorts({ 'usb-FTDI-if00-port0': FTDI_A, 'usb-Pico-if00': PICO }));
    expect(await usbSerialPorts(system)).toEqual([
      { path: `${BY_ID}/usb-FTDI-if00-port0`, vendorId: '0403', productId: '6001', serialNumber: 'A50285BI' },
      { path: `${BY_ID}/usb-Pico-if00`, vendorId: '2e8a', productId: '000a', serialNumber: 'E6614C311B' },
    ]);
  });

  it('finds none before the first USB serial device is plugged in', async () => {
    expect(await usbSerialPorts(fakeSystem())).toEqual([]);
  });

  it('finds the one device with the ids and checks its port', async () => {
    const system = fakeSystem(serialPorts({ 'usb-FTDI-if00-port0': FTDI_A, 'usb-Pico-if00': PICO }));
    expect(await checkDevices(reader({ usb: { vendorId: '2E8A', productId: '000a' } }), system)).toEqual([
      passed('reader rfid-1', `${BY_ID}/usb-Pico-if00`),
    ]);
  });

  it('says what is plugged in when the device is not', async () => {
    const system = fakeSystem(serialPorts({ 'usb-FTDI-if00-port0': FTDI_A }));
    expect(await checkDevices(reader({ usb: { vendorId: '2e8a', productId: '000a' } }), system)).toEqual([
      blocks(
        'reader rfid-1',
        'USB device 2e8a:000a is not plugged in (USB devices seen: 0403:6001 serial A50285BI)',
        "plug the reader board in; `lsusb` lists what the Pi sees: its ids belong in the config's usb { vendorId, productId }",
      ),
    ]);
  });

  it('asks for the serial number when two devices have the ids, and takes it', async () => {
    const system = fakeSystem(serialPorts({ a: FTDI_A, b: FTDI_B }));
    const shuffler = (usb: object) => config({ devices: { shuffler: [{ id: 'shuffler', link: { usb } }] } });
    expect(await checkDevices(shuffler({ vendorId: '0403', productId: '6001' }), system)).toEqual([
      blocks(
        'shuffler shuffler',
        '2 devices are USB device 0403:6001',
        "give the config's usb its serialNumber: `lsusb -v -d 0403:6001 | grep iSerial` shows each one's",
      ),
    ]);
    const one = shuffler({ vendorId: '0403', productId: '6001', serialNumber: 'B7' });
    expect(await checkDevices(one, system)).toEqual([passed('shuffler shuffler', `${BY_ID}/b`)]);
  });

  it('says to install udev when it cannot list the devices', async () => {
    const system = fakeSystem({ readdir: async () => ['usb-Pico-if00'] });
    expect(await checkDevices(reader({ usb: { vendorId: '2e8a', productId: '000a' } }), system)).toEqual([
      blocks(
        'reader rfid-1',
        'cannot list the USB serial devices: spawn udevadm ENOENT',
        'croupier finds its devices with udev: sudo apt-get install udev',
      ),
    ]);
  });
});

describe('doctor: keypads and badge readers', () => {
  const theKeypad = keypad({ vendorId: '1209', productId: '0001' });
  const KEYBOARD = { usagePage: 1, usage: 6 };
  const keypadInterfaces = [
    { path: '/dev/hidraw1', vendorId: '1209', productId: '0001', ...KEYBOARD },
    // Its media keys: another interface of the same keypad, not the one croupier opens.
    { path: '/dev/hidraw2', vendorId: '1209', productId: '0001', usagePage: 12, usage: 1 },
  ];

  it('finds the keyboard interface and checks its hidraw node', async () => {
    const opened: string[] = [];
    const system = fakeSystem({
      hidDevices: async () => keypadInterfaces,
      access: async (path) => void opened.push(path),
    });
    expect(await checkDevices(theKeypad, system)).toEqual([passed('keypad keypad', '/dev/hidraw1')]);
    expect(opened).toEqual(['/dev/hidraw1']);
  });

  it('says to plug in a badge reader that is not there', async () => {
    const system = fakeSystem({ hidDevices: async () => keypadInterfaces });
    expect(await checkDevices(keypad({ vendorId: '1209', productId: '0002' }, 'badge'), system)).toEqual([
      blocks(
        'badge reader keypad',
        'USB device 1209:0002 is not plugged in (USB devices seen: 1209:0001)',
        "plug the badge reader in; `lsusb` lists what the Pi sees: its ids belong in the config's usb { vendorId, productId }",
      ),
    ]);
  });

  it('asks for the serial number of one of two alike keypads', async () => {
    const system = fakeSystem({
      hidDevices: async () => [
        { path: '/dev/hidraw1', vendorId: '1209', productId: '0001', serialNumber: 'K1', ...KEYBOARD },
        { path: '/dev/hidraw3', vendorId: '1209', productId: '0001', serialNumber: 'K2', ...KEYBOARD },
      ],
    });
    expect(await checkDevices(theKeypad, system)).toEqual([
      blocks(
        'keypad keypad',
        '2 devices are USB device 1209:0001',
        "give the config's usb its serialNumber: `lsusb -v -d 1209:0001 | grep iSerial` shows each one's",
      ),
    ]);
  });

  it('says which library to install when node-hid cannot load', async () => {
    const system = fakeSystem({
      hidDevices: async () => {
        throw new HidUnavailableError(new Error('libusb-1.0.so.0: cannot open shared object file'));
      },
    });
    expect(await checkDevices(theKeypad, system)).toEqual([
      blocks(
        'keypad keypad',
        'HID unavailable: libusb-1.0.so.0: cannot open shared object file (install libusb-1.0-0)',
        'sudo apt-get install libusb-1.0-0 libudev1',
      ),
    ]);
  });

  it('says to replug a keypad node-hid fails to list', async () => {
    const system = fakeSystem({ hidDevices: async () => Promise.reject(new Error('hid_enumerate failed')) });
    expect(await checkDevices(theKeypad, system)).toEqual([
      blocks(
        'keypad keypad',
        'cannot list the USB HID devices: hid_enumerate failed',
        'unplug the keypad and plug it in again',
      ),
    ]);
  });

  it('points at the udev rule when croupier may not open the keypad', async () => {
    const system = fakeSystem({
      hidDevices: async () => keypadInterfaces,
      access: async () => Promise.reject(errno('EACCES')),
    });
    const [check] = await checkDevices(theKeypad, system);
    expect(check?.problem).toBe("croupier's user may not open /dev/hidraw1");
    expect(check?.blocking).toBe(true);
  });
});
