import { KEYBOARD_USAGE } from '../../devices/hid-keypad/boot-keyboard.js';
import type { CroupierConfig } from '../config/config.js';
import { type HidDeviceInfo, HidUnavailableError } from '../io/hid.js';
import { describeDevice, messageOf, type SerialPortInfo, sameHex, type UsbDeviceId } from '../io/serial.js';
import { blocks, type Check, errnoOf, passed } from './check.js';
import type { DoctorSystem } from './system.js';

/**
 * The table's devices as the controller will look for them: each configured serial port there and open to
 * croupier's user, each USB device found by its ids, and found once.
 */

const BY_ID = '/dev/serial/by-id';
const RULES = '/etc/udev/rules.d/99-croupier.rules';

interface Kind {
  /** In the check's name. */
  label: string;
  /** In the advice: what to plug in. */
  what: string;
  /** install.sh's option naming its USB ids. */
  option: string;
}

const READER: Kind = { label: 'reader', what: 'the reader board', option: '--reader' };
const SHUFFLER: Kind = { label: 'shuffler', what: "the shuffler's USB-serial adapter", option: '--shuffler' };
const KEYPAD: Kind = { label: 'keypad', what: 'the keypad', option: '--keypad' };
const BADGE: Kind = { label: 'badge reader', what: 'the badge reader', option: '--badge' };

type SerialLinkConfig = CroupierConfig['devices']['rfid'][number]['link'];

export async function checkDevices(config: CroupierConfig, system: DoctorSystem): Promise<Check[]> {
  const { rfid, shuffler, keypad } = config.devices;
  return Promise.all([
    ...rfid.map((device) => checkSerialDevice(system, READER, device.id, device.link)),
    ...shuffler.map((device) => checkSerialDevice(system, SHUFFLER, device.id, device.link)),
    ...keypad.map((device) =>
      checkHidDevice(system, device.mode === 'badge' ? BADGE : KEYPAD, device.id, device.usb),
    ),
  ]);
}

async function checkSerialDevice(
  system: DoctorSystem,
  kind: Kind,
  id: string,
  link: SerialLinkConfig,
): Promise<Check> {
  const name = `${kind.label} ${id}`;
  if (link.type === 'bridge') return passed(name, 'on a croupier bridge: the broker check covers it');
  if (link.path !== undefined) return checkOpenable(system, name, link.path, kind);
  const usb = link.usb as UsbDeviceId;
  let ports: SerialPortInfo[];
  try {
    ports = await usbSerialPorts(system);
  } catch (error) {
    return blocks(
      name,
      `cannot list the USB serial devices: ${messageOf(error)}`,
      'croupier finds its devices with udev: sudo apt-get install udev',
    );
  }
  const found = oneDevice(name, kind, usb, ports);
  return 'path' in found ? checkOpenable(system, name, found.path, kind) : found;
}

async function checkHidDevice(
  system: DoctorSystem,
  kind: Kind,
  id: string,
  usb: UsbDeviceId,
): Promise<Check> {
  const name = `${kind.label} ${id}`;
  let devices: HidDeviceInfo[];
  try {
    devices = await system.hidDevices();
  } catch (error) {
    if (error instanceof HidUnavailableError) {
      return blocks(name, error.message, 'sudo apt-get install libusb-1.0-0 libudev1');
    }
    return blocks(
      name,
      `cannot list the USB HID devices: ${messageOf(error)}`,
      `unplug ${kind.what} and plug it in again`,
    );
  }
  // A keypad may also be a mouse or media keys: croupier opens its keyboard interface.
  const keyboards = devices.filter(
    (d) =>
      d.usagePage === undefined || (d.usagePage === KEYBOARD_USAGE.page && d.usage === KEYBOARD_USAGE.id),
  );
  const found = oneDevice(name, kind, usb, keyboards);
  return 'path' in found ? checkOpenable(system, name, found.path, kind) : found;
}

/** The one device with these ids (a device listed once per interface counts once), or why there is none. */
function oneDevice(
  name: string,
  kind: Kind,
  usb: UsbDeviceId,
  devices: readonly SerialPortInfo[],
): { path: string } | Check {
  const paths = new Set(
    devices
      .filter(
        (d) =>
          sameHex(d.vendorId, usb.vendorId) &&
          sameHex(d.productId, usb.productId) &&
          (usb.serialNumber === undefined || d.serialNumber === usb.serialNumber),
      )
      .map((d) => d.path),
  );
  const [path, ...others] = paths;
  if (path !== undefined && others.length === 0) return { path };
  const seen =
    devices
      .map((d) => `${d.vendorId}:${d.productId}${d.serialNumber ? ` serial ${d.serialNumber}` : ''}`)
      .join(', ') || 'none';
  if (path === undefined) {
    return blocks(
      name,
      `${describeDevice(usb)} is not plugged in (USB devices seen: ${seen})`,
      `plug ${kind.what} in; \`lsusb\` lists what the Pi sees: its ids belong in the config's usb { vendorId, productId }`,
    );
  }
  return blocks(
    name,
    `${paths.size} devices are ${describeDevice(usb)}`,
    `give the config's usb its serialNumber: \`lsusb -v -d ${usb.vendorId}:${usb.productId} | grep iSerial\` shows each one's`,
  );
}

/** The USB serial ports udev names under /dev/serial/by-id, with the ids it read from each. */
export async function usbSerialPorts(
  system: Pick<DoctorSystem, 'readdir' | 'exec'>,
): Promise<SerialPortInfo[]> {
  let names: string[];
  try {
    names = await system.readdir(BY_ID);
  } catch (error) {
    // udev makes the folder at the first USB serial device plugged in.
    if (errnoOf(error) === 'ENOENT') return [];
    throw error;
  }
  return Promise.all(
    names.map(async (entry) => {
      const path = `${BY_ID}/${entry}`;
      const { stdout } = await system.exec('udevadm', ['info', '--query=property', `--name=${path}`]);
      const property = (key: string) => new RegExp(`^${key}=(.+)$`, 'm').exec(stdout)?.[1];
      return {
        path,
        vendorId: property('ID_VENDOR_ID'),
        productId: property('ID_MODEL_ID'),
        serialNumber: property('ID_SERIAL_SHORT'),
      };
    }),
  );
}

/** The device node is there, and croupier's user may read and write it. */
async function checkOpenable(system: DoctorSystem, name: string, path: string, kind: Kind): Promise<Check> {
  try {
    await system.access(path, 'read-write');
    return passed(name, path);
  } catch (error) {
    switch (errnoOf(error)) {
      case 'ENOENT':
        return blocks(
          name,
          `${path} is not there`,
          path.startsWith('/dev/croupier/')
            ? `plug ${kind.what} in (and its power); if it is in, \`lsusb\` shows its ids: ${RULES} must name them (sudo bash deploy/install.sh ${kind.option} VID:PID)`
            : `plug ${kind.what} in (and its power); \`lsusb\` lists what the Pi sees`,
        );
      case 'EACCES':
      case 'EPERM':
        return blocks(
          name,
          `croupier's user may not open ${path}`,
          `${RULES} gives it to the croupier group: sudo udevadm control --reload-rules && sudo udevadm trigger, and run doctor as croupier (sudo croupier doctor)`,
        );
      default:
        return blocks(
          name,
          `cannot open ${path}: ${messageOf(error)}`,
          `unplug ${kind.what} and plug it in again`,
        );
    }
  }
}
