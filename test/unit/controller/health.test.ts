import { describe, expect, it } from 'vitest';
import { TableHealth } from '../../../src/controller/health.js';

describe('table health', () => {
  it('is ok only when every configured device is online and the broker connected', () => {
    let now = 1000;
    const health = new TableHealth('t1', '1.0.0', () => now);
    health.addDevice('rfid-1', 'rfid-reader', () => ({ frames: 3 }));
    health.addDevice('shuffler-1', 'shuffler');
    expect(health.report()).toMatchObject({
      status: 'degraded',
      devices: [{ status: 'unknown' }, { status: 'unknown' }],
    });
    health.mqtt({ state: 'connected' });
    health.device({ device: 'rfid-1', status: 'online', detail: 'reader SIM' });
    health.device({ device: 'shuffler-1', status: 'online' });
    now = 4000;
    health.device({ device: 'stranger', status: 'online' });
    expect(health.report()).toEqual({
      status: 'ok',
      table: 't1',
      version: '1.0.0',
      uptimeS: 3,
      mqtt: { state: 'connected' },
      journal: { path: '', state: 'recording' },
      devices: [
        {
          id: 'rfid-1',
          kind: 'rfid-reader',
          status: 'online',
          detail: 'reader SIM',
          since: 1000,
          counters: { frames: 3 },
        },
        { id: 'shuffler-1', kind: 'shuffler', status: 'online', detail: '', since: 1000 },
      ],
      refused: {},
    });
    health.device({ device: 'rfid-1', status: 'offline', detail: 'unplugged' });
    health.refused('command');
    health.refused('command');
    expect(health.report()).toMatchObject({
      status: 'degraded',
      devices: [{ status: 'offline', since: 4000 }, {}],
      refused: { command: 2 },
    });
    // A journal that cannot record halts the table, whatever the devices say.
    health.journal({ path: 'j.db', state: 'halted', detail: 'the disk is full' });
    expect(health.report()).toMatchObject({ status: 'halted', journal: { detail: 'the disk is full' } });
  });

  it('lists each device for the display without reading its counters', () => {
    const health = new TableHealth('t1', '1.0.0', () => 0);
    let read = 0;
    health.addDevice('rfid-1', 'rfid-reader', () => ({ frames: ++read }));
    health.device({ device: 'rfid-1', status: 'online', detail: 'reader SIM' });
    expect(health.devices()).toEqual([
      { id: 'rfid-1', kind: 'rfid-reader', status: 'online', detail: 'reader SIM' },
    ]);
    expect(read).toBe(0);
  });

  it('halted on a broken record: names its number and why, whether a supervisor can clear it, and the check', () => {
    const health = new TableHealth('t1', '1.0.0', () => 0);
    health.mqtt({ state: 'connected' });
    const record = {
      id: 40,
      seq: 31,
      kind: 'event',
      problem: 'hash' as const,
      reason: 'its hash does not match its content',
    };
    health.journal({
      path: 'j.db',
      state: 'halted',
      detail: 'journal j.db: record 40 (seq 31, kind event) is broken: its hash does not match its content',
      record,
      clearable: true,
      chain: { checked: 'whole', at: 5, records: 130, ms: 3 },
    });
    expect(health.report()).toMatchObject({
      status: 'halted',
      journal: {
        state: 'halted',
        record: { id: 40, reason: 'its hash does not match its content' },
        clearable: true,
      },
    });
    // Cleared: it records again, and says the broken record it still holds was cleared.
    health.journal({
      path: 'j.db',
      state: 'recording',
      chain: { checked: 'whole', records: 131, cleared: 1 },
    });
    expect(health.report()).toMatchObject({ status: 'ok', journal: { chain: { cleared: 1 } } });
  });
});
