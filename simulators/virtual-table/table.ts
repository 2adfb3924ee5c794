import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SerialPort } from 'serialport';
import { CHIP_SENSORS_DEFAULTS } from '../../devices/chip-sensors/manifest.js';
import { HID_KEYPAD_KEYS } from '../../devices/hid-keypad/manifest.js';
import { deviceRoot } from '../../src/mqtt/topics.js';
import { ON_CHANGE, SimulatedChipSensor } from '../chip-sensors/sensor.js';
import { entryOf, keysOf } from '../hid-keypad/from-scenario.js';
import {
  SIMULATED_KEYPAD_USB,
  type SimulatedHidBus,
  type SimulatedKeyboard,
  simulatedHidDevices,
} from '../hid-keypad/keyboard.js';
import { makeOwnedFolder } from '../owned-folder.js';
import { type Cleanups, openDevicePort, type PtyPair, requireSocat, startPtyPair } from '../pty.js';
import { TEN_SEAT_ANTENNAS } from '../rfid-reader/layout.js';
import { SimulatedReader } from '../rfid-reader/reader.js';
import { verdictOf } from '../shuffler/from-scenario.js';
import { SimulatedShuffler } from '../shuffler/shuffler.js';
import type { Channel } from './play.js';

/**
 * A virtual table: its simulated devices on real pseudo-terminals, as croupier would find real ones on
 * USB serial, and the faults a table room produces on demand. `devices` is the config section that
 * points croupier at them.
 */
export interface VirtualTableOptions {
  /** Seeds the devices' noise. */
  seed?: number;
  /** The reader board's inventory period (croupier's config must match: it is the board's setting). */
  inventoryPeriodMs?: number;
  /** The reader board reports the end of each round (default); false plays a board of revision 1.0. */
  reportRounds?: boolean;
  readerId?: string;
}

export interface VirtualTable {
  /** The `devices` section of croupier's config for this table. */
  devices: {
    rfid: { id: string; link: { path: string }; inventoryPeriodMs: number; pucks: string[] }[];
    keypad: { id: string; usb: { vendorId: string; productId: string } }[];
    chips: { id: string }[];
    shuffler: { id: string; link: { path: string; baudRate: number } }[];
  };
  reader: SimulatedReader;
  /** The dealer's keypad, on a simulated USB bus that stands in for node-hid. */
  keypad: SimulatedKeyboard;
  hidBus: SimulatedHidBus;
  /** The devices that play a scenario's events besides the reader: shuffler, keypad, then chip sensors. */
  channels: Channel[];
  /** The dealer button puck's tag. */
  buttonUid: string;
  /**
   * Starts the networked devices (the chip sensors) on the table's broker, once croupier runs it; from
   * then on they play the scenario's chips.
   */
  connectNetworked(mqttUrl: string, tableId: string): Promise<void>;
  /** Pulls the reader's USB cable: its serial port vanishes. */
  unplugReader(): Promise<void>;
  /** Plugs it back: the same port name comes back and the board goes on where it was. */
  replugReader(): Promise<void>;
  close(): Promise<void>;
}

const BAUD = 115_200;
const BUTTON_PUCK = 'B0770B0770';
const CHIPS_ID = 'chips-1';

export async function startVirtualTable({
  seed = 1,
  inventoryPeriodMs = 100,
  reportRounds = true,
  readerId = 'rfid-1',
}: VirtualTableOptions = {}): Promise<VirtualTable> {
  requireSocat('the virtual table');
  const undo: (() => Promise<unknown>)[] = [];
  const cleanups: Cleanups = { push: (cleanup) => undo.push(cleanup) };
  // Its PTYs' names; a table killed with its process leaves it to the next table to remove.
  const dir = await makeOwnedFolder('croupier-table-');
  undo.push(() => rm(dir, { recursive: true, force: true }));
  // One folder per serial device: a PTY pair is named `host` and `device` in its folder.
  const readerDir = join(dir, 'reader');
  const shufflerDir = join(dir, 'shuffler');
  await Promise.all([mkdir(readerDir), mkdir(shufflerDir)]);
  const reader = new SimulatedReader({ antennas: TEN_SEAT_ANTENNAS, inventoryPeriodMs, reportRounds, seed });
  undo.push(async () => reader.stop());

  let cable: { pty: PtyPair; port: SerialPort } | null = null;
  const plug = async () => {
    const pty = await startPtyPair(readerDir, cleanups);
    const port = await openDevicePort(pty.device, cleanups, BAUD);
    cable = { pty, port };
    return port;
  };
  reader.start(await plug());
  const shuffler = new SimulatedShuffler({ seed });
  undo.push(async () => shuffler.stop());
  shuffler.start(await openDevicePort((await startPtyPair(shufflerDir, cleanups)).device, cleanups, BAUD));
  const { bus: hidBus, keypad } = simulatedHidDevices();
  const channels: Channel[] = [];
  channels.push((event) => {
    if (event.type !== 'shuffler') return false;
    shuffler.present(verdictOf(event));
    return true;
  });
  channels.push((event) => {
    const entry = entryOf({ ...event, seq: 0 });
    if (entry === null || typeof entry === 'string') return false;
    keypad.press(...keysOf(entry, HID_KEYPAD_KEYS));
    return true;
  });
  return {
    devices: {
      rfid: [
        { id: readerId, link: { path: join(readerDir, 'host') }, inventoryPeriodMs, pucks: [BUTTON_PUCK] },
      ],
      keypad: [{ id: 'keypad-1', usb: SIMULATED_KEYPAD_USB }],
      chips: [{ id: CHIPS_ID }],
      shuffler: [{ id: 'shuffler-1', link: { path: join(shufflerDir, 'host'), baudRate: BAUD } }],
    },
    reader,
    keypad,
    hidBus,
    channels,
    buttonUid: BUTTON_PUCK,
    async connectNetworked(mqttUrl, tableId) {
      const chips = new SimulatedChipSensor({
        url: mqttUrl,
        baseTopic: deviceRoot(tableId, CHIPS_ID),
        zones: CHIP_SENSORS_DEFAULTS.zones,
        periodMs: 50,
        seed,
        // A room's broker carries every table's sensors: they report on change (issue 20).
        onChange: ON_CHANGE,
      });
      await chips.start();
      // A goodbye to a broker already gone would wait for ever.
      undo.push(() => Promise.race([chips.stop(), sleep(1000)]));
      channels.push((event) => {
        if (event.type !== 'chips') return false;
        chips.set(event.zone, event.amount);
        return true;
      });
    },
    async unplugReader() {
      await cable?.pty.stop();
      cable = null;
    },
    async replugReader() {
      if (cable) return;
      reader.attach(await plug());
    },
    async close() {
      for (const step of undo.splice(0).reverse()) await step().catch(() => undefined);
    },
  };
}
