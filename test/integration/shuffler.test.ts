import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { filter, firstValueFrom, ReplaySubject, skip } from 'rxjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { byteLinkFromSerial } from '../../devices/serial-link.js';
import { type Shuffler, type ShufflerEvent, shufflerDriver } from '../../devices/shuffler/driver.js';
import { parseShufflerConfig } from '../../devices/shuffler/manifest.js';
import { SimulatedShuffler } from '../../simulators/shuffler/shuffler.js';
import { FACES } from '../../src/domain/cards.js';
import { DeckRegistry } from '../../src/domain/deck-registry.js';
import { openSerialLink } from '../../src/io/serial.js';
import { type ShufflerDomainEvent, shufflerToDomain } from '../../src/normaliser/shuffler.js';
import { openDevicePort, type PtyPair, requireSocat, startPtyPair, within } from './pty.js';

/*
 * The simulated shuffler as a real serial peer: it speaks on one end of a socat PTY pair through
 * node-serialport; croupier's serial link, shuffler driver and domain mapping listen on the other.
 * Killing socat is the unplug.
 */

const BAUD = 9600;
const registry = DeckRegistry.forScenario(['A', 'B']);
const FULL_A = FACES.map((face) => registry.uidOf('A', face) ?? '');
const FOREIGN = '04A1B2C3';

let dir = '';
/** Run after each test, newest first, so a failing test still stops the shuffler, closes ports and kills socat. */
let cleanups: (() => unknown)[] = [];

beforeAll(async () => {
  requireSocat('the shuffler integration tests');
  dir = await mkdtemp(join(tmpdir(), 'croupier-shuffler-'));
});

afterEach(async () => {
  const pending = cleanups.reverse();
  cleanups = [];
  for (const cleanup of pending) await Promise.resolve(cleanup()).catch(() => undefined);
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

interface Table {
  socat: PtyPair;
  shuffler: SimulatedShuffler;
  driver: Shuffler;
  /** Every driver event and every domain event so far, replayed to each new waiter. */
  events: ReplaySubject<ShufflerEvent>;
  domain: ReplaySubject<ShufflerDomainEvent>;
  seen: ShufflerEvent[];
}

/** A simulated shuffler on the device end, croupier's link and driver on the host end, online. */
async function startTable(): Promise<Table> {
  const socat = await startPtyPair(dir, cleanups);
  const serial = openSerialLink({
    device: { path: socat.host },
    baudRate: BAUD,
    backoff: { initialMs: 50, maxMs: 400 },
  });
  cleanups.push(() => serial.close());
  const driver = shufflerDriver(
    byteLinkFromSerial(serial),
    parseShufflerConfig({ heartbeatTimeoutMs: 1000 }),
  );
  const events = new ReplaySubject<ShufflerEvent>();
  const domain = new ReplaySubject<ShufflerDomainEvent>();
  const seen: ShufflerEvent[] = [];
  const subscription = driver.events.subscribe((event) => {
    seen.push(event);
    events.next(event);
  });
  const mapped = driver.events.pipe(shufflerToDomain('shuffler-1', registry)).subscribe(domain);
  cleanups.push(() => {
    subscription.unsubscribe();
    mapped.unsubscribe();
  });
  const shuffler = new SimulatedShuffler({
    decks: { A: FULL_A },
    serial: 'SIM-IT-S',
    shuffleMs: 300,
    heartbeatMs: 250,
  });
  cleanups.push(() => shuffler.stop());
  shuffler.start(await openDevicePort(socat.device, cleanups, BAUD));
  const table = { socat, shuffler, driver, events, domain, seen };
  await waitFor(
    table,
    'the shuffler online',
    (event) => event.kind === 'status' && event.status === 'online',
  );
  // Its first STATUS: after the power-up HELLO, or after the HELLO it gives when the driver asks.
  await waitFor(table, 'the first report', (event) => event.kind === 'report');
  return table;
}

/** The first event matching `predicate` among those after the first `from`. */
function waitFor(
  table: Pick<Table, 'events'>,
  what: string,
  predicate: (event: ShufflerEvent) => boolean,
  from = 0,
): Promise<ShufflerEvent> {
  return within(10_000, what, firstValueFrom(table.events.pipe(skip(from), filter(predicate))));
}

const isReport = (event: ShufflerEvent): event is Extract<ShufflerEvent, { kind: 'report' }> =>
  event.kind === 'report';

describe('simulated shuffler over socat pseudo-terminals', () => {
  it('round-trips SHUFFLE and EJECT and reports the recognised deck as domain events', async () => {
    const table = await startTable();
    const [missing, ...kept] = FULL_A;
    table.shuffler.load([...kept, FOREIGN], { faceUp: [kept[0] ?? ''] });

    expect(await table.driver.command('shuffle')).toEqual({ ok: true });
    await waitFor(table, 'the deck ready', (event) => isReport(event) && event.state === 'ready');
    expect(await table.driver.command('eject')).toEqual({ ok: true });
    expect(await table.driver.command('eject')).toEqual({
      ok: false,
      reason: 'the shuffler refused: not-ready',
    });
    await waitFor(
      table,
      'the deck handed out',
      (event) => isReport(event) && event.state === 'idle' && table.shuffler.count === 0,
    );

    const reports = table.seen.filter(isReport).map((report) => report.state);
    expect(reports).toEqual(['idle', 'shuffling', 'ready', 'idle']);
    const domain: ShufflerDomainEvent[] = [];
    table.domain.subscribe((event) => domain.push(event));
    expect(domain.find((event) => event.type === 'shuffler' && event.state === 'ready')).toMatchObject({
      type: 'shuffler',
      deck: 'A',
      count: 52,
      faceUp: [registry.lookup(kept[0] ?? '')],
      missing: [registry.lookup(missing ?? '')],
      extra: [{ uid: FOREIGN, face: null, deck: null }],
    });
    expect(domain[0]).toMatchObject({ type: 'device', device: 'shuffler-1', status: 'offline' });
    expect(table.shuffler.handedOut).toHaveLength(52);
    expect(table.driver.counters()?.rejected).toEqual(expect.objectContaining({ 'bad-checksum': 0 }));
  });

  it('loses no valid report among garbage lines, and counts every garbage line', async () => {
    const table = await startTable();
    for (let count = 48; count <= 52; count++) {
      table.shuffler.sendGarbage(30);
      table.shuffler.present({ state: 'ready', deck: 'A', count, faceup: [], missing: [], extra: [] });
      table.shuffler.sendGarbage(30);
    }
    await waitFor(table, 'the last report', (event) => isReport(event) && event.count === 52);
    expect(table.seen.filter(isReport).map((report) => report.count ?? '-')).toEqual([
      '-',
      48,
      49,
      50,
      51,
      52,
    ]);
    const rejected = table.seen.filter((event) => event.kind === 'rejected');
    expect(rejected).toHaveLength(10);
    const counters = table.driver.counters();
    const total = Object.values(counters?.rejected ?? {}).reduce((sum, n) => sum + n, 0);
    expect(total).toBe(10);
    expect(
      table.seen
        .filter((event) => event.kind === 'status')
        .map((event) => event.kind === 'status' && event.status),
    ).toEqual(['offline', 'offline', 'online']);
  });

  it('shows the shuffler offline when unplugged or silent, and resumes with what changed meanwhile', async () => {
    const table = await startTable();
    // A round trip first: the transport can miss a hangup in the first milliseconds after it opened.
    expect(await table.driver.command('eject')).toEqual({
      ok: false,
      reason: 'the shuffler refused: not-ready',
    });
    await table.socat.stop();
    const isStatus = (status: string, detail: string) => (event: ShufflerEvent) =>
      event.kind === 'status' && event.status === status && event.detail.includes(detail);
    await waitFor(table, 'offline on unplug', isStatus('offline', 'disconnected'));
    // Jammed while unplugged: its STATUS is lost in the cable.
    table.shuffler.present({ state: 'jam', code: 'E07', faceup: [], missing: [], extra: [] });

    const back = await startPtyPair(dir, cleanups);
    table.shuffler.attach(await openDevicePort(back.device, cleanups, BAUD));
    await waitFor(table, 'a fault for the jam after the replug', isStatus('fault', 'jam (code E07)'));

    table.shuffler.goSilent();
    table.shuffler.clearFault();
    const silent = table.seen.length;
    await waitFor(table, 'offline on silence', isStatus('offline', 'nothing heard for 1000 ms'), silent);
    table.shuffler.resume();
    // The STATUS sent while silent is lost: the next heartbeat names its generation, and the driver asks.
    await waitFor(table, 'online once the jam is cleared', isStatus('online', 'SIM-IT-S'), silent);

    const after = table.seen.slice(silent - 1);
    expect(table.seen.filter(isReport).map((report) => report.state)).toEqual(['idle', 'jam', 'idle']);
    expect(after.map((event) => (event.kind === 'status' ? event.status : event.kind))).toEqual([
      'fault',
      'offline',
      'fault',
      'report',
      'online',
    ]);
  });
});
