import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SHARED = '../shared/scenarios';
const CARD_CODE_HELP = '(rank 2-9TJQKA + suit shdc, optional "B:" deck prefix)';

let dir: string;

/** `croupier ARGS` as a user runs it: bin/croupier.js over the built dist/. */
function croupier(...args: string[]) {
  const { status, stdout, stderr } = spawnSync(process.execPath, ['bin/croupier.js', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return { status, stdout, stderr };
}

function scenarioFile(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const MALFORMED = `name: bad card
profile: main-event-2014
table: { seats: 9 }
decks: [A, B]
events:
  - hand.start: { button: 9, players: [1, 2, 3], blinds: [50, 100] }
  - card: { zone: seat:1, card: Zz }
`;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'croupier-cli-'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('croupier replay: bad input', () => {
  it('reports a malformed scenario in one line and exits 2', () => {
    const file = scenarioFile('malformed.yaml', MALFORMED);
    expect(croupier('replay', '--check', file)).toEqual({
      status: 2,
      stdout: '',
      stderr: `${file}: events[1].card.card: "Zz" is not a card code ${CARD_CODE_HELP}\n`,
    });
  });

  it('reports a YAML syntax error without a stack trace', () => {
    const file = scenarioFile('syntax.yaml', 'name: [unclosed\n');
    const { status, stderr } = croupier('replay', file);
    expect(status).toBe(2);
    expect(stderr).toMatch(new RegExp(`^${file}: .* at line \\d+, column \\d+`));
    expect(stderr).not.toMatch(/^\s+at /m);
  });

  it('reports a missing file and exits 2', () => {
    const { status, stdout, stderr } = croupier('replay', join(dir, 'nowhere.yaml'));
    expect({ status, stdout }).toEqual({ status: 2, stdout: '' });
    expect(stderr).toMatch(/^croupier: ENOENT: no such file or directory.*nowhere\.yaml'\n$/);
  });

  it('refuses an empty directory', () => {
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    expect(croupier('replay', empty)).toMatchObject({
      status: 2,
      stderr: `croupier: no scenario files (.yaml, .yml, .json) in ${empty}\n`,
    });
  });

  it.each([
    ['an unknown command', ['play', 'x.yaml'], 'croupier: unknown command "play"\n'],
    ['an unknown flag', ['replay', '--chek', 'x.yaml'], "croupier: Unknown option '--chek'"],
    [
      'an option of another command',
      ['replay', 'x.yaml', '--demo', '--baud', '7'],
      'croupier: replay takes no --demo\n',
    ],
    ['no file', ['replay'], 'usage: croupier replay FILE... [--check]'],
    ['no command', [], 'usage: croupier replay FILE... [--check]'],
  ])('prints the usage for %s and exits 2', (_, args, message) => {
    const { status, stdout, stderr } = croupier(...args);
    expect({ status, stdout }).toEqual({ status: 2, stdout: '' });
    expect(stderr).toContain(message);
    expect(stderr).toContain('usage: croupier replay FILE... [--check]');
  });

  it('prints the usage on --help', () => {
    expect(croupier('--help')).toMatchObject({
      status: 0,
      stdout: expect.stringContaining('usage: croupier replay'),
      stderr: '',
    });
  });
});

// These run the real table machine (src/table/table.ts).
describe('croupier replay: replaying', () => {
  it('passes the shared scenarios with --check, one JSON line per output, each naming its file', () => {
    const { status, stdout, stderr } = croupier('replay', '--check', SHARED);
    expect(stderr).toBe(
      [
        'clean-nine-handed.json',
        'fc-premature-river-last-to-act.json',
        'me-premature-flop.yaml',
        'tda-exposed-first-card.json',
      ]
        .map((name) => `ok ${join(SHARED, name)}\n`)
        .join(''),
    );
    expect(status).toBe(0);
    const lines = stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    // An incident, a prompt or a pot's award: the clean hand's river bet goes back, its pot is won at the fold.
    expect(
      lines.map((line) => [line.file, line.incident ?? line.prompt ?? `pot ${line.pot}`, line.at]),
    ).toEqual([
      [join(SHARED, 'clean-nine-handed.json'), 'RETURN_UNCALLED', 42],
      [join(SHARED, 'clean-nine-handed.json'), 'pot 0', 42],
      [join(SHARED, 'fc-premature-river-last-to-act.json'), 'PREMATURE_RIVER', 39],
      [join(SHARED, 'me-premature-flop.yaml'), 'PREMATURE_FLOP', 13],
      [join(SHARED, 'tda-exposed-first-card.json'), 'EXPOSED_CARD', 2],
    ]);
  });

  it('passes the whole scenario corpus with --check (subdirectories included)', () => {
    const { status, stderr } = croupier('replay', '--check', 'test/scenarios', SHARED);
    expect(stderr.split('\n').filter((line) => line && !line.startsWith('ok '))).toEqual([]);
    expect(stderr.split('\n').filter((line) => line.startsWith('ok ')).length).toBeGreaterThan(200);
    expect(status).toBe(0);
  });

  it("prints DESIGN.md's output line for one file, without a file field", () => {
    const { status, stdout, stderr } = croupier('replay', join(SHARED, 'tda-exposed-first-card.json'));
    expect({ status, stderr }).toEqual({ status: 0, stderr: '' });
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0] ?? '');
    expect(Object.keys(line)).toEqual([
      'kind',
      'at',
      'incident',
      'ruling',
      'seats',
      'cards',
      'rule',
      'floor',
      'steps',
    ]);
    expect(line).toMatchObject({
      kind: 'incident',
      at: 2,
      incident: 'EXPOSED_CARD',
      ruling: 'MISDEAL',
      seats: [3],
      cards: ['As'],
    });
    expect(line.steps[0]).toMatchObject({
      code: expect.any(String),
      text: { fr: expect.any(String), en: expect.any(String) },
    });
  });

  it('prints a diff and exits 1 when the replay differs from expect', () => {
    const source = JSON.parse(readFileSync(join(ROOT, SHARED, 'tda-exposed-first-card.json'), 'utf8'));
    source.expect[0].ruling = 'CARD_LIVE';
    const file = scenarioFile('wrong-ruling.json', JSON.stringify(source));
    const { status, stderr } = croupier('replay', '--check', file);
    expect(stderr).toBe(
      `FAIL ${file}: expected EXPOSED_CARD (CARD_LIVE) seats [3] cards [As] at 2, got EXPOSED_CARD (MISDEAL) seats [3] cards [As] at 2\n`,
    );
    expect(status).toBe(1);
  });

  it('still replays the other files of a directory when one is malformed, and exits 2', () => {
    const mixed = join(dir, 'mixed');
    mkdirSync(mixed);
    writeFileSync(join(mixed, 'a-malformed.yaml'), MALFORMED);
    writeFileSync(
      join(mixed, 'b-good.json'),
      readFileSync(join(ROOT, SHARED, 'tda-exposed-first-card.json')),
    );
    writeFileSync(join(mixed, 'notes.txt'), 'not a scenario');
    const { status, stdout, stderr } = croupier('replay', '--check', mixed);
    expect(stderr).toBe(
      `${join(mixed, 'a-malformed.yaml')}: events[1].card.card: "Zz" is not a card code ${CARD_CODE_HELP}\nok ${join(mixed, 'b-good.json')}\n`,
    );
    expect(stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(status).toBe(2);
  });
});
