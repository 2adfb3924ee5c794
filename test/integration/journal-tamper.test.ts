import { copyFile, mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, it } from 'vitest';
import WebSocket from 'ws';
import type { HealthReport } from '../../src/controller/health.js';
import type { DisplayMessage } from '../../src/display/protocol.js';
import { openJournal } from '../../src/journal/store.js';
import { hashSecret } from '../../src/supervisor/credentials.js';
import { journalNight } from '../night-journal.js';
import { storedRecords, TAMPERINGS, type Tampering } from '../tamperings.js';
import { cleanupsOf, type LiveTable, startLiveTable, type Undo, until } from './live-table.js';
import { requireSocat } from './pty.js';

/*
 * Tamper evidence that acts (issue 22): each tampering of the journal, made with a SQLite connection of
 * its own (or the file cut short), while croupier is off and while it plays. croupier halts the table
 * as for a full disk, naming the first broken record and why on /healthz (over HTTP), the display's
 * WebSocket and the retained MQTT status (`halted`, on the embedded broker), within one check, and keeps
 * every record journaled before it. The halt is journaled and outlives a restart, a "repair" included,
 * until a supervisor signs its clearing on the display.
 *
 * The journal: a night of four hands at one table, as the controller writes it (about 130 records).
 */

/** A record in the journal's middle, with records after it. */
const AT = 40;
const PIN = '2468';
/** A whole check of the chain every second: "within one check" stays short. */
const CHECK_EVERY_MS = 1000;

requireSocat('the journal tampering tests');

/** A folder of the test's own, removed after it. */
async function folder(undo: Undo): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'croupier-tamper-'));
  undo.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** The night's journal as croupier leaves it after a clean stop. */
async function nightJournal(dir: string): Promise<string> {
  const path = join(dir, 'journal.db');
  await journalNight(path, { cleanStop: true });
  return path;
}

interface Watched {
  live: LiveTable;
  screen: DisplayMessage[];
}

/** croupier on the journal at `path`, with a supervisor, and a display screen listening. */
async function croupierOn(undo: Undo, path: string, journal: Record<string, unknown> = {}): Promise<Watched> {
  const live = await startLiveTable(
    { push: (step) => undo.push(step) },
    {
      journal: { path, verifyEveryMs: CHECK_EVERY_MS, ...journal },
      supervisors: [{ name: 'Marie Floor', pin: await hashSecret(PIN) }],
    },
  );
  const screen: DisplayMessage[] = [];
  const socket = new WebSocket(`${live.controller.httpUrl.replace(/^http/, 'ws')}/ws`);
  socket.on('message', (data) => screen.push(JSON.parse(String(data)) as DisplayMessage));
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  undo.push(async () => socket.close());
  return { live, screen };
}

async function healthz(live: LiveTable): Promise<HealthReport> {
  return (await (await fetch(`${live.controller.httpUrl}/healthz`)).json()) as HealthReport;
}

/** The table's retained status on the broker, as the floor client last heard it. */
function mqttStatus(live: LiveTable): string | undefined {
  const said = live.messages.filter(({ topic }) => topic === 'croupier/v1/test-table/status').at(-1);
  return said && (JSON.parse(said.payload.toString()) as { state: string }).state;
}

/**
 * Waits for the halt to be said everywhere, naming the record (`first`; a truncation's is found by
 * reading) and its problem; returns the record named.
 */
async function expectHalted(
  expect: typeof import('vitest').expect,
  { live, screen }: Watched,
  first: number | undefined,
  problem: string,
): Promise<number> {
  let health: HealthReport | undefined;
  // The first broken record: a check of the last records, or an append, may name a later one first.
  await until(
    15_000,
    () => `a halt naming the first broken record on /healthz (${JSON.stringify(health?.journal)})`,
    () =>
      health?.status === 'halted' &&
      health.journal.record !== undefined &&
      (first === undefined || health.journal.record.id === first),
    async () => {
      health = await healthz(live);
    },
  );
  const named = health?.journal.record;
  expect(named).toMatchObject({ problem, ...(first !== undefined && { id: first }) });
  const id = named?.id as number;
  expect(health?.journal.detail).toMatch(new RegExp(`record ${id}\\b.* is broken: `));
  await until(
    10_000,
    () => `the display's halt naming record ${id}`,
    () => screen.some((m) => m.type === 'halt' && m.record === id && m.detail.includes(`record ${id}`)),
  );
  await until(
    10_000,
    () => `MQTT status halted (now ${mqttStatus(live)})`,
    () => mqttStatus(live) === 'halted',
  );
  return id;
}

/**
 * What the journal holds before the first broken record (or the one tampered with, if earlier) is
 * unchanged; and the halt of a broken record is journaled, after what was there.
 */
function expectKept(
  expect: typeof import('vitest').expect,
  path: string,
  before: unknown[],
  named: number,
  tampered: number | undefined,
): void {
  const upTo = tampered === undefined ? named : Math.min(named, AT);
  expect(storedRecords(path, upTo)).toEqual((before as { id: number }[]).filter(({ id }) => id < upTo));
  if (tampered === undefined) return;
  const journal = openJournal(path, { readonly: true });
  try {
    expect(journal.history().halts.map(({ record }) => record.id)).toContain(named);
  } finally {
    journal.close();
  }
}

/** A dealer's touch while halted: not journaled, not judged (a damaged file: of what it can read). */
async function expectNothingPlayed(
  expect: typeof import('vitest').expect,
  watched: Watched,
  path: string,
  readable: number | undefined,
) {
  const events = () => storedRecords(path, readable).filter(({ kind }) => kind === 'event').length;
  const before = events();
  let judged = 0;
  const counting = watched.live.controller.updates.subscribe(() => {
    judged += 1;
  });
  watched.live.controller.input({ type: 'dealer', t: Date.now(), input: 'call-floor' });
  await new Promise((resolve) => setTimeout(resolve, 200));
  counting.unsubscribe();
  expect(judged).toBe(0);
  expect(events()).toBe(before);
}

describe('a tampered journal halts the table', () => {
  it.for(TAMPERINGS)(
    'at start: $name',
    { timeout: 60_000 },
    async (tampering: Tampering, { expect, onTestFinished }) => {
      const undo = cleanupsOf(onTestFinished);
      const path = await nightJournal(await folder(undo));
      const before = storedRecords(path);
      const { first, problem } = tampering.apply(path, AT);
      const watched = await croupierOn(undo, path);
      const named = await expectHalted(expect, watched, first, problem);
      expectKept(expect, path, before, named, first);
      await expectNothingPlayed(expect, watched, path, first === undefined ? named : undefined);
    },
  );

  it.for(TAMPERINGS)(
    'while it plays, within one check: $name',
    { timeout: 60_000 },
    async (tampering: Tampering, { expect, onTestFinished }) => {
      const undo = cleanupsOf(onTestFinished);
      const path = await nightJournal(await folder(undo));
      const watched = await croupierOn(undo, path);
      // The check at start has walked the whole chain, and found it whole.
      let health: HealthReport | undefined;
      await until(
        10_000,
        () => `a whole check (${JSON.stringify(health?.journal)})`,
        () => health?.journal.chain?.checked === 'whole',
        async () => {
          health = await healthz(watched.live);
        },
      );
      expect(health?.status).not.toBe('halted');
      await until(
        10_000,
        () => `MQTT status online (now ${mqttStatus(watched.live)})`,
        () => mqttStatus(watched.live) === 'online',
      );
      const before = storedRecords(path);
      const { first, problem } = tampering.apply(path, AT);
      const named = await expectHalted(expect, watched, first, problem);
      expectKept(expect, path, before, named, first);
      await expectNothingPlayed(expect, watched, path, first === undefined ? named : undefined);
    },
  );

  it('while it plays, at the next record written: the last record changed', { timeout: 60_000 }, async ({
    expect,
    onTestFinished,
  }) => {
    const undo = cleanupsOf(onTestFinished);
    const path = await nightJournal(await folder(undo));
    // No background check for an hour: the append itself finds it.
    const watched = await croupierOn(undo, path, { verifyEveryMs: 3_600_000 });
    await until(
      10_000,
      () => 'the check at start',
      () => watched.live.controller.health.report().journal.chain?.checked === 'whole',
    );
    const last = storedRecords(path).at(-1)?.id as number;
    TAMPERINGS[0]?.apply(path, last);
    watched.live.controller.input({ type: 'dealer', t: Date.now(), input: 'call-floor' });
    const named = await expectHalted(expect, watched, last, 'hash');
    expect(named).toBe(last);
    expect(watched.live.controller.health.report().journal.chain).toMatchObject({ checked: 'whole' });
  });
});

describe('a journal gone from the disk halts the table', () => {
  it('within one check: the writer would go on into a file no one reads again', { timeout: 60_000 }, async ({
    expect,
    onTestFinished,
  }) => {
    const undo = cleanupsOf(onTestFinished);
    const dir = await folder(undo);
    const path = await nightJournal(dir);
    const watched = await croupierOn(undo, path);
    await until(
      10_000,
      () => 'the check at start',
      () => watched.live.controller.health.report().journal.chain?.checked === 'whole',
    );
    await rename(path, join(dir, 'moved-away.db'));
    let health: HealthReport | undefined;
    await until(
      10_000,
      () => `the halt (${JSON.stringify(health?.journal)})`,
      () => health?.status === 'halted',
      async () => {
        health = await healthz(watched.live);
      },
    );
    expect(health?.journal.detail).toBe(
      `journal ${path}: the file is no longer on the disk: nothing more would be kept`,
    );
    await until(
      10_000,
      () => 'MQTT status halted',
      () => mqttStatus(watched.live) === 'halted',
    );
  });
});

describe('the halt outlives a restart until a supervisor clears it', () => {
  it('stays halted after a restart, and after a "repair"; a signed clearing resumes play from the journal', {
    timeout: 120_000,
  }, async ({ expect, onTestFinished }) => {
    const undo = cleanupsOf(onTestFinished);
    const dir = await folder(undo);
    const path = await nightJournal(dir);
    const pristine = join(dir, 'pristine.db');
    await copyFile(path, pristine);
    TAMPERINGS[0]?.apply(path, AT);

    const first = await croupierOn(undo, path);
    await expectHalted(expect, first, AT, 'hash');
    await first.live.controller.close();
    // Restarted as it is: still halted, on the same record, its halt journaled once.
    const restarted = await croupierOn(undo, path);
    await expectHalted(expect, restarted, AT, 'hash');
    await restarted.live.controller.close();
    const journaled = openJournal(path, { readonly: true });
    expect(journaled.history().halts.map(({ record }) => record.id)).toEqual([AT]);
    journaled.close();

    // Put back as it was while croupier is off: the chain is whole, the journaled halt stands.
    const original = storedRecords(pristine).find(({ id }) => id === AT)?.body;
    const fix = new Database(path);
    fix.prepare('UPDATE records SET body = ? WHERE id = ?').run(original, AT);
    fix.close();
    const repaired = openJournal(path, { readonly: true });
    expect(repaired.verify()).toMatchObject({ ok: true });
    repaired.close();
    const again = await croupierOn(undo, path);
    await expectHalted(expect, again, AT, 'hash');
    const health = await healthz(again.live);
    expect(health.journal).toMatchObject({ state: 'halted', clearable: true });
    await until(
      10_000,
      () => 'the check at start',
      () => again.live.controller.health.report().journal.chain?.checked === 'whole',
    );

    // The supervisor's last hands: every hand from the broken record on is marked.
    const post = async (route: string, body: unknown) => {
      const response = await fetch(`${again.live.controller.httpUrl}${route}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: response.status, answer: (await response.json().catch(() => null)) as never };
    };
    expect((await post('/api/floor/clear-halt', { token: 'nobody' })).status).toBe(401);
    const { answer: session } = await post('/api/floor/sign-in', { pin: PIN });
    const { token } = session as { token: string };
    const recent = (await post('/api/floor/recent-hands', { token })).answer as {
      number: number;
      broken?: { record: number; where: string };
    }[];
    expect(recent.map((hand) => hand.broken?.record)).toContain(AT);
    expect(recent.filter((hand) => hand.broken === undefined).length).toBeGreaterThan(0);

    // Signed: journaled with the supervisor's name; the screens start over; MQTT says online again.
    const screenBefore = again.screen.length;
    expect(await post('/api/floor/clear-halt', { token })).toMatchObject({
      status: 202,
      answer: { taken: 'clear-halt', supervisor: 'Marie Floor' },
    });
    await until(
      15_000,
      () => 'play to resume',
      () => again.live.controller.health.report().status !== 'halted',
    );
    await until(
      10_000,
      () => 'a new hello on the display',
      () => again.screen.slice(screenBefore).some((m) => m.type === 'hello'),
    );
    await until(
      10_000,
      () => 'MQTT status online',
      () => mqttStatus(again.live) === 'online',
    );
    expect((await post('/api/floor/clear-halt', { token })).answer).toMatchObject({ code: 'not-halted' });
    const reader = openJournal(path, { readonly: true });
    undo.push(async () => reader.close());
    expect(reader.history().clearings).toMatchObject([{ supervisor: 'Marie Floor', cause: 'chain-broken' }]);
    // Play goes on: a touch is journaled again.
    const touches = () =>
      storedRecords(path).filter(({ kind, body }) => kind === 'event' && body.includes('"call-floor"'))
        .length;
    const before = touches();
    again.live.controller.input({ type: 'dealer', t: Date.now(), input: 'call-floor' });
    await until(
      5_000,
      () => 'the touch journaled',
      () => touches() === before + 1,
    );
    expect(again.live.logs.some((line) => line.includes('halt cleared by a supervisor'))).toBe(true);
  });

  it('a journal whose file is damaged cannot be cleared from the display: the file must be dealt with', {
    timeout: 60_000,
  }, async ({ expect, onTestFinished }) => {
    const undo = cleanupsOf(onTestFinished);
    const path = await nightJournal(await folder(undo));
    TAMPERINGS.find(({ name }) => name === 'the file truncated')?.apply(path, AT);
    const watched = await croupierOn(undo, path);
    await expectHalted(expect, watched, undefined, 'unreadable');
    const post = async (route: string, body: unknown) =>
      fetch(`${watched.live.controller.httpUrl}${route}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const { token } = (await (await post('/api/floor/sign-in', { pin: PIN })).json()) as { token: string };
    const refused = await post('/api/floor/clear-halt', { token });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ code: 'not-clearable' });
  });
});
