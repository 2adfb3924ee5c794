import { describe, expect, it } from 'vitest';
import { parseRfidReaderConfig, RFID_READER_DEFAULTS } from '../../../../devices/rfid-reader/manifest.js';

function problems(section: unknown): string {
  try {
    parseRfidReaderConfig(section, 'devices.reader');
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the section was accepted');
}

describe('rfid-reader manifest', () => {
  it('fills every field but the id from the defaults', () => {
    const config = parseRfidReaderConfig({ id: 'rfid-1' });
    expect(config).toMatchObject({
      link: { type: 'serial', baudRate: 115_200 },
      pucks: [],
      inventoryPeriodMs: 250,
      presenceTimeoutMs: 1500,
      goneGraceMs: 1000,
      heartbeatTimeoutMs: 3000,
    });
    expect(config.antennas).toEqual(RFID_READER_DEFAULTS.antennas);
    expect(config.antennas[9]).toBe('seat:10');
  });

  it('finds the port by USB ids, and takes puck UIDs in any hex case', () => {
    const config = parseRfidReaderConfig({
      id: 'rfid-east',
      link: { usb: { vendorId: '2E8A', productId: '000a' } },
      antennas: { 0: 'seat:1', 5: 'board', 6: 'board' },
      pucks: ['b0770b07'],
    });
    expect(config.link).toEqual({
      type: 'serial',
      usb: { vendorId: '2e8a', productId: '000a' },
      baudRate: 115_200,
    });
    expect(config.pucks).toEqual(['B0770B07']);
  });

  it('names each bad key and says what is wrong with it', () => {
    expect(
      problems({
        id: 'reader-1',
        antennas: { 3: 'seat:11', 300: 'board' },
        pucks: ['xyz'],
        link: { baudRate: 9600 },
      }).split('\n'),
    ).toEqual([
      'devices.reader.id: a card reader id starts with "rfid" (e.g. "rfid-1")',
      'devices.reader.link: give the port as path (e.g. /dev/ttyACM0) or usb { vendorId, productId }',
      'devices.reader.antennas.3: "seat:11" is no zone: use seat:1 to seat:10, board, burn or muck',
      'devices.reader.antennas.300: an antenna index is 0 to 255',
      'devices.reader.pucks.0: a tag UID is 4 to 10 bytes in hex',
    ]);
  });

  it('refuses timings under which one missed round could end a card', () => {
    expect(problems({ id: 'rfid-1', inventoryPeriodMs: 500, goneGraceMs: 800 })).toMatch(
      /^devices\.reader\.goneGraceMs: must be at least two inventory periods/,
    );
    expect(problems({ id: 'rfid-1', presenceTimeoutMs: 900 })).toBe(
      'devices.reader.presenceTimeoutMs: must be at least goneGraceMs',
    );
  });
});
