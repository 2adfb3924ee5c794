import { type Observable, tap } from 'rxjs';
import { rfidReader } from '../../devices/rfid-reader/driver.js';
import type { RfidReaderConfig } from '../../devices/rfid-reader/manifest.js';
import { rfidLinkFromSerial } from '../../devices/rfid-reader/serial-link.js';
import { rfidToDomain } from '../../devices/rfid-reader/to-domain.js';
import type { DeckRegistry } from '../domain/deck-registry.js';
import { openSerialLink, type SerialDevice } from '../io/serial.js';
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
}

export function serialDeviceOf(link: {
  path?: string | undefined;
  usb?: SerialDevice | undefined;
}): SerialDevice {
  if (link.path !== undefined) return { path: link.path };
  if (link.usb !== undefined) return link.usb;
  throw new Error('a serial device needs a path or USB ids');
}

export function openRfidReader(config: RfidReaderConfig, context: DeviceContext): DeviceHandle {
  const serial = openSerialLink({ device: serialDeviceOf(config.link), baudRate: config.link.baudRate });
  const reader = rfidReader(rfidLinkFromSerial(serial), config);
  return {
    id: config.id,
    kind: 'rfid-reader',
    events: reader.events.pipe(
      tap((event) => {
        if (event.kind === 'rejected') context.refused(config.id, event.reason);
      }),
      rfidToDomain(config.id, context.registry),
    ),
    counters: () => reader.counters(),
    close: () => serial.close(),
  };
}
