import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { doctor } from '../../../src/cli/doctor.js';
import { blocks, formatCheck, passed, warns } from '../../../src/doctor/check.js';
import { diagnose, report } from '../../../src/doctor/doctor.js';
import { type DoctorSystem, hostSystem } from '../../../src/doctor/system.js';
import { croupierAnswers, errno, fakeSystem } from './fake-system.js';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'croupier-doctor-'));
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
  vi.restoreAllMocks();
});

/** A table's config: a reader on its udev name, the journal in the test's folder. */
function tableConfig(): string {
  const path = join(folder, 'croupier.yaml');
  writeFileSync(
    path,
    [
      'table: { id: table-7 }',
      `journal: { path: ${join(folder, 'journal.db')} }`,
      'devices: { rfid: [{ id: rfid-1, link: { path: /dev/croupier/reader } }] }',
    ].join('\n'),
  );
  return path;
}

/** The Pi of a table in play: croupier runs, its reader is there, the clock synchronised. */
const healthyPi = (more: Partial<DoctorSystem> = {}) =>
  fakeSystem({
    access: async (path, mode) => (path.startsWith('/dev/') ? undefined : hostSystem().access(path, mode)),
    fetch: croupierAnswers('table-7'),
    mqttConnect: async () => undefined,
    exec: async () => ({ code: 0, stdout: 'yes\n' }),
    ...more,
  });

describe('croupier doctor', () => {
  it('checks everything of a table in play, a line each', async () => {
    const config = tableConfig();
    expect(await diagnose(config, healthyPi())).toEqual([
      passed('config', config),
      passed('decks', 'A, B'),
      passed('reader rfid-1', '/dev/croupier/reader'),
      passed('broker', "croupier's own broker answers on mqtt://127.0.0.1:1883"),
      passed('journal', `none yet: croupier starts ${join(folder, 'journal.db')} at its first start`),
      passed('disk', '10.0 GB free for the journal'),
      passed('clock', 'synchronised with a time server'),
      passed('display', 'http://127.0.0.1:8080/'),
    ]);
  });

  it('checks nothing more of a config croupier would refuse', async () => {
    const config = join(folder, 'croupier.yaml');
    writeFileSync(config, 'table: { seats: 1 }\n');
    const checks = await diagnose(config, healthyPi());
    expect(checks.map((c) => c.name)).toEqual(['config']);
  });

  it('reads the installed config when given none', async () => {
    const looked: string[] = [];
    const system = healthyPi({ access: async (path) => void looked.push(path) });
    const [config] = await diagnose(undefined, system);
    expect(looked[0]).toBe('/etc/croupier/croupier.yaml');
    expect(config?.name).toBe('config');
    const none = await diagnose(
      undefined,
      healthyPi({ access: async () => Promise.reject(errno('ENOENT')) }),
    );
    expect(none[0]).toEqual(passed('config', 'no file: every key takes its default'));
  });

  it('marks what passed, what blocks play and what to look at', () => {
    expect(formatCheck(passed('disk', '12.5 GB free for the journal'))).toBe(
      '✓ disk: 12.5 GB free for the journal',
    );
    expect(formatCheck(passed('disk'))).toBe('✓ disk');
    expect(formatCheck(blocks('reader rfid-1', '/dev/croupier/reader is not there', 'plug it in'))).toBe(
      '✗ reader rfid-1: /dev/croupier/reader is not there → plug it in',
    );
    expect(formatCheck(warns('clock', 'not synchronised', 'check the network'))).toBe(
      '! clock: not synchronised → check the network',
    );
  });

  it('ends with its verdict', () => {
    const ok = passed('config');
    const blocked = blocks('disk', 'full', 'free some');
    const warned = warns('clock', 'late', 'set it');
    expect(report([ok])).toBe('✓ config\nnothing keeps the table from playing\n');
    expect(report([ok, warned])).toBe(
      '✓ config\n! clock: late → set it\nnothing keeps the table from playing; 1 more to look at (!)\n',
    );
    expect(report([blocked, blocked, warned]).split('\n').at(-2)).toBe(
      '2 problems keep the table from playing; 1 more to look at (!)',
    );
    expect(report([blocked]).split('\n').at(-2)).toBe('1 problem keeps the table from playing');
  });

  it('exits 1 when something blocks play, 0 otherwise', async () => {
    let stdout = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((text) => {
      stdout += String(text);
      return true;
    });
    const config = tableConfig();
    expect(await doctor({ config }, healthyPi())).toBe(0);
    expect(stdout).toMatch(/\nnothing keeps the table from playing\n$/);
    stdout = '';
    const unplugged = healthyPi({
      access: async (path, mode) =>
        path.startsWith('/dev/') ? Promise.reject(errno('ENOENT')) : hostSystem().access(path, mode),
    });
    expect(await doctor({ config }, unplugged)).toBe(1);
    expect(stdout).toContain(
      '\n✗ reader rfid-1: /dev/croupier/reader is not there → plug the reader board in',
    );
    expect(stdout).toMatch(/\n1 problem keeps the table from playing\n$/);
  });
});
