import { describe, expect, it } from 'vitest';
import { levelOf, roleOrLegacyIdRule } from '../../../src/domain/events.js';

describe("a level command's value", () => {
  it('gives the blinds, and the ante when it has one (none is 0)', () => {
    expect(levelOf('100/200')).toEqual({ blinds: [100, 200], ante: 0 });
    expect(levelOf('100/200/25')).toEqual({ blinds: [100, 200], ante: 25 });
    expect(levelOf('0/100')).toEqual({ blinds: [0, 100], ante: 0 });
    expect(levelOf('200/200')).toEqual({ blinds: [200, 200], ante: 0 });
    expect(levelOf('123456789/123456789')).toEqual({ blinds: [123456789, 123456789], ante: 0 });
  });

  it('is refused: a small blind above the big, no big blind, or not sb/bb[/ante] whole numbers', () => {
    for (const value of [
      '200/100',
      '0/0',
      undefined,
      '',
      '100',
      '100/',
      '100/200/',
      '100/200/25/5',
      ' 100/200',
      '100/200 ',
      'x100/200',
      '1234567890/2000000000',
      '100.5/200',
      '-100/200',
    ]) {
      expect(levelOf(value), String(value)).toBeNull();
    }
  });
});

describe('the role of a device event', () => {
  it('is the role it carries, whatever its id', () => {
    expect(roleOrLegacyIdRule({ device: 'rfid-1', role: 'keypad' })).toBe('keypad');
    expect(roleOrLegacyIdRule({ device: 'table-reader', role: 'card-reader' })).toBe('card-reader');
  });

  it('without one, is a card reader for an id starting with rfid (earlier journals), else none', () => {
    expect(roleOrLegacyIdRule({ device: 'rfid-main' })).toBe('card-reader');
    expect(roleOrLegacyIdRule({ device: 'main-rfid' })).toBeUndefined();
    expect(roleOrLegacyIdRule({ device: 'shuffler' })).toBeUndefined();
  });
});
