import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/config.js';
import { dealerTouches } from '../../../src/display/touch-policy.js';

describe('who may drive the table from the display', () => {
  it('the Pi itself, on loopback, in every form the server sees it', () => {
    const mayTouch = dealerTouches([]);
    for (const ip of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) expect(mayTouch(ip)).toBe(true);
  });

  it('nobody else on the network, unless the config names the touch panel', () => {
    const mayTouch = dealerTouches(['10.0.0.23', 'fd00::23']);
    expect(mayTouch('10.0.0.23')).toBe(true);
    expect(mayTouch('::ffff:10.0.0.23')).toBe(true);
    expect(mayTouch('fd00::23')).toBe(true);
    for (const ip of ['10.0.0.24', '192.168.1.5', '::ffff:10.0.0.24', 'fd00::24', '', 'not an address']) {
      expect(mayTouch(ip)).toBe(false);
    }
  });

  it('a touch panel the config names must be an address', () => {
    expect(() => parseConfig({ display: { dealerAddresses: ['panel.local'] } })).toThrow(/dealerAddresses/);
    expect(parseConfig({ display: { dealerAddresses: ['10.0.0.23'] } }).display.dealerAddresses).toEqual([
      '10.0.0.23',
    ]);
  });
});
