import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { blocks, passed } from '../../../src/doctor/check.js';
import { checkConfig, checkDecks } from '../../../src/doctor/config-check.js';
import { FACES } from '../../../src/domain/cards.js';
import { config } from './fake-system.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function file(name: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'croupier-doctor-'));
  dirs.push(dir);
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const RESTART = 'then sudo systemctl restart croupier';

describe('doctor: the config', () => {
  it('takes every default without a file', async () => {
    const { check, config: read } = await checkConfig(undefined);
    expect(check).toEqual(passed('config', 'no file: every key takes its default'));
    expect(read?.table.id).toBe('table-1');
  });

  it('reads the file croupier start would', async () => {
    const path = file('croupier.yaml', 'table: { id: table-7 }\n');
    const { check, config: read } = await checkConfig(path);
    expect(check).toEqual(passed('config', path));
    expect(read?.table.id).toBe('table-7');
  });

  it('names each bad key, on one line', async () => {
    const path = file('croupier.yaml', 'table: { id: "table 7", seats: 12 }\n');
    const { check, config: read } = await checkConfig(path);
    expect(read).toBeUndefined();
    expect(check).toEqual(
      blocks(
        'config',
        `${path}: table.id: a table id is 1 to 32 letters, digits, "-" or "_" (it names MQTT topics); ${path}: table.seats: Too big: expected number to be <=10`,
        `correct the keys named in ${path} (README.md lists them), ${RESTART}`,
      ),
    );
  });

  it('says who writes a config that is not there', async () => {
    const { check } = await checkConfig('/etc/croupier-nowhere/croupier.yaml');
    expect(check.advice).toBe(
      "sudo bash deploy/install.sh writes /etc/croupier/croupier.yaml; or give --config the table's config",
    );
    expect(check.problem).toMatch(/^\/etc\/croupier-nowhere\/croupier.yaml: cannot read the config: ENOENT/);
  });

  it('gives a config croupier cannot read (here a folder) to its group', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'croupier-doctor-'));
    dirs.push(folder);
    const { check } = await checkConfig(folder);
    expect(check.advice).toBe(
      `croupier's user reads it: sudo chown root:croupier ${folder} && sudo chmod 0640 ${folder}`,
    );
  });
});

describe('doctor: the decks', () => {
  it('registers each deck as croupier start does', async () => {
    expect(await checkDecks(config())).toEqual(passed('decks', 'A, B'));
    const list = file('A.txt', FACES.map((_, i) => `E0040150${String(i).padStart(8, '0')}`).join('\n'));
    expect(await checkDecks(config({ decks: { A: list } }))).toEqual(passed('decks', 'A'));
  });

  it("says what a deck's file must hold when it is missing or short", async () => {
    const advice = `put each deck's file there: its 52 tag UIDs, one a line, in face order (2s…As, 2h…, 2d…, 2c…) as the card maker ships them, ${RESTART}`;
    expect(await checkDecks(config({ decks: { A: '/etc/croupier/decks/nowhere.txt' } }))).toEqual(
      blocks(
        'decks',
        "decks.A: cannot read /etc/croupier/decks/nowhere.txt: ENOENT: no such file or directory, open '/etc/croupier/decks/nowhere.txt'",
        advice,
      ),
    );
    const short = await checkDecks(config({ decks: { A: file('A.txt', 'E004015000000001\n') } }));
    expect(short.blocking).toBe(true);
    expect(short.problem).toMatch(/^decks\.A: /);
    expect(short.advice).toBe(advice);
  });
});
