import { type Observable, tap } from 'rxjs';
import { chipSensor } from '../../devices/chip-sensors/driver.js';
import type { ChipSensorsConfig } from '../../devices/chip-sensors/manifest.js';
import type { ByteLink } from '../../devices/device-session.js';
import { hidKeypad } from '../../devices/hid-keypad/driver.js';
import { keypadLinkFromHid, openKeypadHid } from '../../devices/hid-keypad/hid-link.js';
import type { HidKeypadConfig } from '../../devices/hid-keypad/manifest.js';
import type { IdentityClaims } from '../../devices/identity-claims.js';
import { rfidReader } from '../../devices/rfid-reader/driver.js';
import type { RfidReaderConfig } from '../../devices/rfid-reader/manifest.js';
import { byteLinkFromSerial } from '../../devices/serial-link.js';
import { shufflerDriver } from '../../devices/shuffler/driver.js';
import type { ShufflerConfig } from '../../devices/shuffler/manifest.js';
import { bridgedByteLink } from '../../firmware-bridge/bridge.js';
import type { DeckRegistry } from '../domain/deck-registry.js';
import type { HidBinding } from '../io/hid.js';
import type { MqttLink } from '../io/mqtt.js';
import { openSerialLink, type SerialDevice } from '../io/serial.js';
import { deviceRoot } from '../mqtt/topics.js';
import { chipSensorsToDomain } from '../normaliser/chip-sensors.js';
import { hidKeypadToDomain } from '../normaliser/hid-keypad.js';
import { rfidToDomain } from '../normaliser/rfid-reader.js';
import { shufflerToDomain } from '../normaliser/shuffler.js';
import type { SourceEvent } from './pipeline.js';

/**
 * The devices the config lists, each opened on its transport and its driver's output normalised into
 * domain events. Like zigbee2mqtt's adapters: one opener per device kind, the controller sees only this.
 */
export interface DeviceHandle {
  id: string;
  kind: string;
  events: Observable<SourceEvent>;
  /** The driver's counters (frames, refusals), for `/healthz`. */
  counters(): unknown;
  close(): Promise<void>;
}

export interface DeviceContext {
  registry: DeckRegistry;
  /** Input a driver refused, with its reason (never a card identity). */
  refused(deviceId: string, reason: string): void;
  /** USB HID access: node-hid unless a simulated bus stands in for it. */
  hidBinding?: HidBinding | undefined;
  /** Networked devices speak on the table's broker, under `device/<id>/`. */
  mqtt: MqttLink;
  tableId: string;
  /** Who holds which serial number among the table's serial devices: a cloned one is refused. */
  claims: IdentityClaims;
  /** A badge a keypad in badge mode read: for the supervisor sign-in, never the table. */
  badge?(uid: string): void;
}

/** Reports the refusals a driver's events carry as `{ kind: 'rejected', reason }`. */
function countRefusals<E extends { kind: string }>(deviceId: string, context: DeviceContext) {
  return tap((event: E) => {
    if (event.kind === 'rejected' && 'reason' in event) context.refused(deviceId, String(event.reason));
  });
}

type LinkConfig = RfidReaderConfig['link'];

/** A serial device's byte link: its port on the Pi, or its bytes through `croupier bridge`. */
function openByteLink(
  link: LinkConfig,
  deviceId: string,
  context: DeviceContext,
): { bytes: ByteLink; close(): Promise<void> } {
  if (link.type === 'bridge') {
    const bytes = bridgedByteLink(context.mqtt, deviceRoot(context.tableId, deviceId));
    return { bytes, close: async () => undefined };
  }
  const device: SerialDevice = link.path !== undefined ? { path: link.path } : (link.usb as SerialDevice);
  const serial = openSerialLink({ device, baudRate: link.baudRate });
  return { bytes: byteLinkFromSerial(serial), close: () => serial.close() };
}

export function openRfidReader(config: RfidReaderConfig, context: DeviceContext): DeviceHandle {
  const link = openByteLink(config.link, config.id, context);
  const reader = rfidReader(link.bytes, config, undefined, context.claims);
  return {
    id: config.id,
    kind: 'rfid-reader',
    events: reader.events.pipe(countRefusals(config.id, context), rfidToDomain(config.id, context.registry)),
    counters: () => reader.counters(),
    close: () => link.close(),
  };
}

/** The dealer's keypad; a badge reader's badges are for the supervisor checks, not the table. */
export function openKeypad(config: HidKeypadConfig, context: DeviceContext): DeviceHandle {
  const hid = openKeypadHid(config, context.hidBinding);
  const keypad = hidKeypad(keypadLinkFromHid(hid), config);
  return {
    id: config.id,
    kind: 'hid-keypad',
    events: keypad.events.pipe(
      countRefusals(config.id, context),
      tap((event) => {
        if (event.kind === 'badge') context.badge?.(event.uid);
      }),
      hidKeypadToDomain(config.id),
    ),
    counters: () => keypad.counters(),
    close: () => hid.close(),
  };
}

/** Networked chip sensors (load cells, RFID chip readers) on the table's broker. */
export function openChipSensors(config: ChipSensorsConfig, context: DeviceContext): DeviceHandle {
  const sensor = chipSensor(
    context.mqtt,
    deviceRoot(context.tableId, config.id),
    config,
    undefined,
    context.claims,
  );
  return {
    id: config.id,
    kind: 'chip-sensors',
    events: sensor.events.pipe(countRefusals(config.id, context), chipSensorsToDomain(config)),
    counters: () => sensor.counters(),
    close: async () => undefined,
  };
}

/** The automatic shuffler with card recognition, on a serial link. */
export function openShuffler(config: ShufflerConfig, context: DeviceContext): DeviceHandle {
  const link = openByteLink(config.link, config.id, context);
  const shuffler = shufflerDriver(link.bytes, config, undefined, context.claims);
  return {
    id: config.id,
    kind: 'shuffler',
    events: shuffler.events.pipe(
      countRefusals(config.id, context),
      shufflerToDomain(config.id, context.registry),
    ),
    counters: () => shuffler.counters(),
    close: () => link.close(),
  };
}
