import { describe, expect, it } from 'vitest';
import {
  parseShufflerConfig,
  SHUFFLER_DEFAULTS,
  shufflerManifest,
} from '../../../../devices/shuffler/manifest.js';

describe('shuffler config', () => {
  it('gives every field a default', () => {
    expect(parseShufflerConfig({})).toEqual({
      id: 'shuffler',
      link: SHUFFLER_DEFAULTS.link,
      heartbeatTimeoutMs: 3000,
      commandTimeoutMs: 2000,
    });
    expect(shufflerManifest.kind).toBe('shuffler');
  });

  it('finds the port by USB ids, with the RS-232 speed unless told otherwise', () => {
    expect(parseShufflerConfig({ link: { usb: { vendorId: '0403', productId: '6001' } } }).link).toEqual({
      type: 'serial',
      usb: { vendorId: '0403', productId: '6001' },
      baudRate: 9600,
    });
  });

  it('names each bad key and what is wrong with it', () => {
    expect(() =>
      parseShufflerConfig(
        { id: 'rfid-2', link: { baudRate: 19200 }, commandTimeoutMs: 5, colour: 'red' },
        'tables.t1.shuffler',
      ),
    ).toThrow(
      [
        'tables.t1.shuffler.id: ids starting with "rfid" are for card readers',
        'tables.t1.shuffler.link: give the port as path (e.g. /dev/ttyUSB0) or usb { vendorId, productId }',
        'tables.t1.shuffler.commandTimeoutMs: Too small: expected number to be >=100',
        'tables.t1.shuffler: Unrecognized key: "colour"',
      ].join('\n'),
    );
  });
});
