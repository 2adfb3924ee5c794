import { describe, expect, it } from 'vitest';
import {
  CHIP_SENSORS_DEFAULTS,
  chipSensorsManifest,
  parseChipSensorsConfig,
} from '../../../../devices/chip-sensors/manifest.js';
import { ConfigError } from '../../../../src/config/problems.js';

describe('chip-sensors config', () => {
  it('fills every default but the id, with action inference off', () => {
    expect(parseChipSensorsConfig({ id: 'chips-1' })).toEqual({ id: 'chips-1', ...CHIP_SENSORS_DEFAULTS });
    expect(CHIP_SENSORS_DEFAULTS.zones).toEqual([
      ...['bet:1', 'bet:2', 'bet:3', 'bet:4', 'bet:5', 'bet:6', 'bet:7', 'bet:8', 'bet:9', 'bet:10'],
      'pot',
      'tray',
    ]);
    expect(chipSensorsManifest).toMatchObject({ kind: 'chip-sensors', link: 'mqtt' });
  });

  it('pins the sensor to a serial number when the config names one', () => {
    expect(parseChipSensorsConfig({ id: 'chips-1', serial: 'CS-0042' }).serial).toBe('CS-0042');
  });

  it.each([
    [{}, 'devices.chips.id: Invalid input: expected string, received undefined'],
    [{ id: 'rfid-2' }, 'devices.chips.id: ids starting with "rfid" are card readers (e.g. use "chips-1")'],
    [{ id: 'chips/1' }, 'devices.chips.id: a device id is 1 to 64 letters, digits, "_", ".", ":" or "-"'],
    [
      { id: 'c', zones: ['bet:1', 'seat:2'] },
      'devices.chips.zones.1: "seat:2" is no chip zone: use bet:N, pot or tray',
    ],
    [{ id: 'c', zones: ['pot', 'pot'] }, 'devices.chips.zones: a zone is listed twice'],
    [{ id: 'c', zones: ['bet:11'] }, 'devices.chips.zones: a bet zone is bet:1 to bet:10'],
    [{ id: 'c', zones: [] }, 'devices.chips.zones: name at least one zone'],
    [{ id: 'c', stableMs: 10 }, 'devices.chips.stableMs: Too small: expected number to be >=50'],
    [
      { id: 'c', resolution: 25, tolerance: 25 },
      'devices.chips.tolerance: must be below resolution, so that one chip more or less is a change',
    ],
    [
      { id: 'c', inferActions: 'yes' },
      'devices.chips.inferActions: Invalid input: expected boolean, received string',
    ],
    [{ id: 'c', link: 'mqtt' }, 'devices.chips: Unrecognized key: "link"'],
    [{ id: 'c', serial: '' }, 'devices.chips.serial: Too small: expected string to have >=1 characters'],
  ])('refuses %j, naming the key', (section, message) => {
    expect(() => parseChipSensorsConfig(section, 'devices.chips')).toThrow(new ConfigError(message));
  });
});
