import { BehaviorSubject, Subject, VirtualTimeScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { type RfidEvent, rfidReader } from '../../../../devices/rfid-reader/driver.js';
import { parseRfidReaderConfig } from '../../../../devices/rfid-reader/manifest.js';
import { byteLinkFromSerial } from '../../../../devices/serial-link.js';
import type { SerialLink, SerialStatus } from '../../../../src/io/serial.js';

describe('rfid-reader over the serial transport', () => {
  it('follows the port going up and down, once per change, and survives a refused write', async () => {
    const device = '/dev/ttyACM0';
    const status$ = new BehaviorSubject<SerialStatus>({ state: 'opening', device });
    const writes: Uint8Array[] = [];
    const serial: SerialLink = {
      data$: new Subject<Uint8Array>(),
      status$,
      get status() {
        return status$.value;
      },
      write: async (bytes) => {
        writes.push(bytes);
        throw new Error('port not open');
      },
      close: async () => undefined,
    };
    const events: RfidEvent[] = [];
    const config = parseRfidReaderConfig({ id: 'rfid-1' });
    rfidReader(byteLinkFromSerial(serial), config, new VirtualTimeScheduler()).events.subscribe((event) =>
      events.push(event),
    );
    status$.next({ state: 'open', device, path: device });
    status$.next({ state: 'closed', device, reason: 'device unplugged', retryInMs: 100 });
    status$.next({ state: 'error', device, reason: 'no such device', attempt: 1, retryInMs: 200 });
    await Promise.resolve();
    expect(events.map((event) => event.kind === 'status' && event.detail)).toEqual([
      'link down: opening /dev/ttyACM0',
      'waiting for HELLO',
      'link down: device unplugged',
    ]);
    expect(writes).toHaveLength(1); // the identify command
  });
});
