import { describe, expect, it } from 'vitest';
import { encodeLine, lineChecksum } from '../../../../devices/shuffler/protocol.js';
import { Bench, DEVICE, HELLO, rejections, reports, status, statuses, uid } from './bench.js';

const READY_A = status(1, { state: 'ready', deck: 'A', count: 52 });

describe('shuffler driver: handshake and health', () => {
  it('asks the device who it is on link up, and is online once it says it is a shuffler', async () => {
    const bench = new Bench().connect(0).heartbeats(1000, 2000);
    const events = await bench.run(2500);
    expect(bench.written).toEqual([{ verb: 'IDENT', id: 0 }]);
    expect(events.filter((event) => event.kind === 'status')).toEqual([
      { kind: 'status', status: 'offline', detail: 'waiting for HELLO', t: 0 },
      { kind: 'status', status: 'online', detail: DEVICE, t: 0 },
    ]);
    expect(reports(events)).toEqual([
      { kind: 'report', t: 0, state: 'idle', deck: null, faceUp: [], missing: [], extra: [] },
    ]);
    expect(rejections(events)).toEqual([]);
    expect(bench.driver.counters()).toMatchObject({ lines: 5, refused: 0 });
  });

  it('refuses a device of another kind, ignores what it sends, and sends it no command', async () => {
    const reader = { ...HELLO, kind: 'rfid-reader', serial: 'RB-1' };
    const bench = new Bench().connect(0, reader).send(100, READY_A).command(200, 'shuffle');
    const events = await bench.run(1000);
    expect(rejections(events)).toEqual([
      'refused HELLO: the device on this link says it is a rfid-reader (serial RB-1), not a shuffler',
    ]);
    expect(statuses(events)).toEqual(['offline @0', 'fault @0']);
    expect(reports(events)).toEqual([]);
    expect(bench.driver.counters()?.refused).toBe(2); // both STATUS lines
    expect(bench.written.map((message) => message.verb)).toEqual(['IDENT']);
    expect(bench.outcomes[0]?.outcome).toMatchObject({ ok: false });
  });

  it('goes offline when nothing is heard for the heartbeat timeout, and online at the next line', async () => {
    const bench = new Bench().connect(0).heartbeats(1000, 2000).heartbeats(7000, 8000);
    const events = await bench.run(9000);
    expect(statuses(events)).toEqual(['offline @0', 'online @0', 'offline @5000', 'online @7000']);
    expect(events).toContainEqual({
      kind: 'status',
      status: 'offline',
      detail: `${DEVICE}: nothing heard for 3000 ms`,
      t: 5000,
    });
  });

  it('is offline at once when the link drops, and says HELLO again when it comes back', async () => {
    const bench = new Bench().connect(0).at(500, () => bench.state.next({ up: false, reason: 'unplugged' }));
    bench.connect(2000).heartbeats(3000, 3000);
    const events = await bench.run(3500);
    expect(statuses(events)).toEqual([
      'offline @0',
      'online @0',
      'offline @500',
      'offline @2000',
      'online @2000',
    ]);
    expect(events).toContainEqual({
      kind: 'status',
      status: 'offline',
      detail: 'link down: unplugged',
      t: 500,
    });
    expect(bench.written.map((message) => message.verb)).toEqual(['IDENT', 'IDENT']);
  });

  it('reports a jam, an open door and an error as faults with their code, and online once cleared', async () => {
    const bench = new Bench().connect(0);
    bench.send(100, status(1, { state: 'jam', code: 'E07' })).send(200, status(2, { state: 'idle' }));
    bench.send(300, status(3, { state: 'door-open' })).send(400, status(4, { state: 'error', code: 'E9' }));
    bench.send(500, status(5, { state: 'idle' }));
    const events = await bench.run(600);
    expect(
      events.flatMap((event) => (event.kind === 'status' ? [`${event.status}: ${event.detail}`] : [])),
    ).toEqual([
      'offline: waiting for HELLO',
      `online: ${DEVICE}`,
      `fault: ${DEVICE}: jam (code E07)`,
      `online: ${DEVICE}`,
      `fault: ${DEVICE}: door open`,
      `fault: ${DEVICE}: error (code E9)`,
      `online: ${DEVICE}`,
    ]);
    expect(reports(events).map((report) => report.state)).toEqual([
      'idle',
      'jam',
      'idle',
      'door-open',
      'error',
      'idle',
    ]);
  });
});

describe('shuffler driver: deck reports', () => {
  it('passes each status on once, however often the device repeats it', async () => {
    const bench = new Bench().connect(0).send(100, READY_A).send(200, READY_A).send(300, READY_A);
    bench.send(400, status(2, { state: 'shuffling' })).send(5000, { ...READY_A, gen: 3 });
    const events = await bench.run(5100);
    expect(reports(events).map((report) => `${report.state} @${report.t}`)).toEqual([
      'idle @0',
      'ready @100',
      'shuffling @400',
      'ready @5000',
    ]);
    expect(reports(events)[1]).toEqual({
      kind: 'report',
      t: 100,
      state: 'ready',
      deck: 'A',
      count: 52,
      faceUp: [],
      missing: [],
      extra: [],
    });
  });

  it('carries the face-up, missing and extra tags, the order and the code as the device gives them', async () => {
    const fields = { faceup: [uid(1)], missing: [uid(2), uid(3)], extra: [uid(9)], order: [uid(9), uid(1)] };
    const bench = new Bench().connect(0).send(100, status(1, { state: 'ready', deck: 'B', ...fields }));
    const [, report] = reports(await bench.run(200));
    expect(report).toEqual({
      kind: 'report',
      t: 100,
      state: 'ready',
      deck: 'B',
      faceUp: [uid(1)],
      missing: [uid(2), uid(3)],
      extra: [uid(9)],
      order: [uid(9), uid(1)],
    });
  });

  it('asks for the status again when a heartbeat shows one was lost to noise', async () => {
    const bench = new Bench().connect(0).heartbeats(1000, 1000, 0);
    // The STATUS of generation 1 is corrupted on the line: the heartbeats name generation 1.
    bench.raw(1500, `${encodeLine(READY_A).replace('count=52', 'count=53')}`);
    bench.heartbeats(2000, 3000, 1).answer(2000).send(2000, READY_A);
    const events = await bench.run(3500);
    expect(bench.written.map((message) => message.verb)).toEqual(['IDENT', 'QUERY']);
    expect(reports(events).map((report) => `${report.state} @${report.t}`)).toEqual([
      'idle @0',
      'ready @2000',
    ]);
    expect(rejections(events)).toEqual([expect.stringMatching(/^bad line \(bad-checksum\)/)]);
  });

  it('refuses reports before the HELLO', async () => {
    const bench = new Bench().at(0, () => bench.state.next({ up: true })).send(100, READY_A);
    const events = await bench.run(200);
    expect(reports(events)).toEqual([]);
    expect(bench.driver.counters()?.refused).toBe(1);
  });
});

describe('shuffler driver: bad lines', () => {
  it('rejects and counts garbage between lines, and loses no valid line around it', async () => {
    const bench = new Bench().connect(0);
    bench.raw(100, '\u0000\u00ff#garbage\r\n').send(100, READY_A).raw(100, 'STATUS gen=9 state=jam*0000\r\n');
    bench
      .raw(200, 'BOGUS*1234\n')
      .send(200, status(2, { state: 'shuffling' }))
      .raw(200, `${'z'.repeat(5000)}\n`);
    bench.send(300, { ...READY_A, gen: 3, count: 51 });
    const events = await bench.run(400);
    expect(reports(events).map((report) => `${report.state} ${report.count ?? '-'}`)).toEqual([
      'idle -',
      'ready 52',
      'shuffling -',
      'ready 51',
    ]);
    const counters = bench.driver.counters();
    expect(counters?.rejected).toMatchObject({ 'not-ascii': 1, 'bad-checksum': 2, 'too-long': 1 });
    expect(rejections(events)).toHaveLength(4);
    expect(statuses(events)).toEqual(['offline @0', 'online @0']);
  });

  it('names no tag in a rejection, even for a line that carries tags', async () => {
    const body = `STATUS gen=1 state=ready faceup=${uid(5)},nope`;
    const bench = new Bench().connect(0).raw(100, `${body}*${lineChecksum(body)}\r\n`);
    const [reason] = rejections(await bench.run(200));
    expect(reason).toBe(
      'bad line (bad-field): STATUS: faceup.1 is not a tag UID (4 to 10 bytes, upper-case hex)',
    );
    expect(reason).not.toContain(uid(5));
  });

  it('rejects a line cut off by the link dropping', async () => {
    const bench = new Bench().connect(0).raw(100, 'STATUS gen=1 sta');
    bench.at(200, () => bench.state.next({ up: false, reason: 'unplugged' }));
    const events = await bench.run(300);
    expect(rejections(events)).toEqual(['bad line (cut-off): a line cut off after 16 bytes']);
  });

  it('reports an answer that matches no command, and a command sent by the device', async () => {
    const bench = new Bench()
      .connect(0)
      .send(100, { verb: 'ACK', id: 42 })
      .send(100, { verb: 'SHUFFLE', id: 1 });
    expect(rejections(await bench.run(200))).toEqual([
      'an ACK for id 42, which no pending command has',
      'the shuffler sent SHUFFLE, which only croupier sends',
    ]);
    expect(bench.driver.counters()?.refused).toBe(2);
  });
});

describe('shuffler driver: commands', () => {
  it('sends SHUFFLE and EJECT with fresh ids and resolves with the device’s answer', async () => {
    const bench = new Bench()
      .connect(0)
      .command(100, 'shuffle')
      .answer(150)
      .command(200, 'eject')
      .answer(250, 'not-ready');
    await bench.run(300);
    expect(bench.written).toEqual([
      { verb: 'IDENT', id: 0 },
      { verb: 'SHUFFLE', id: 1 },
      { verb: 'EJECT', id: 2 },
    ]);
    expect(bench.outcomes).toEqual([
      { command: 'shuffle', outcome: { ok: true } },
      { command: 'eject', outcome: { ok: false, reason: 'the shuffler refused: not-ready' } },
    ]);
  });

  it('fails a command left unanswered, one cut short by the link, and one to an offline shuffler', async () => {
    const bench = new Bench({ commandTimeoutMs: 500 })
      .command(0, 'shuffle')
      .connect(100)
      .heartbeats(1000, 3000);
    bench.command(1000, 'shuffle').command(2000, 'eject');
    bench.at(2100, () => bench.state.next({ up: false, reason: 'unplugged' }));
    await bench.run(4000);
    expect(bench.outcomes).toEqual([
      {
        command: 'shuffle',
        outcome: {
          ok: false,
          reason: 'the shuffler cannot take commands (offline: link down: not opened yet)',
        },
      },
      { command: 'shuffle', outcome: { ok: false, reason: 'no answer to SHUFFLE within 500 ms' } },
      { command: 'eject', outcome: { ok: false, reason: 'link down: unplugged' } },
    ]);
  });

  it('asks again who the device is when it talks without having said HELLO', async () => {
    const bench = new Bench().at(0, () => bench.state.next({ up: true })).heartbeats(1000, 3000);
    bench.answer(3000).send(3000, HELLO);
    const events = await bench.run(3500);
    // The first IDENT went out before the device's end was open; the heartbeat at 3000 is after it timed out.
    expect(bench.written).toEqual([
      { verb: 'IDENT', id: 0 },
      { verb: 'IDENT', id: 1 },
    ]);
    expect(statuses(events)).toEqual(['offline @0', 'online @3000']);
  });

  it('reports its own IDENT going unanswered', async () => {
    const bench = new Bench().at(0, () => bench.state.next({ up: true })).heartbeats(0, 3000);
    expect(rejections(await bench.run(3000))).toEqual(['IDENT failed: no answer to IDENT within 2000 ms']);
  });
});
