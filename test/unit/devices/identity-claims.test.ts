import { describe, expect, it } from 'vitest';
import { judgeHello } from '../../../devices/device-status.js';
import { IdentityClaims } from '../../../devices/identity-claims.js';

const READER = 'rfid-reader';
const REFUSED =
  'rfid-1 already said hello as rfid-reader RB-0042: two devices give one serial number; refused until rfid-1 goes offline and this one says hello again';

describe('identity claims: one device per kind and serial number', () => {
  it('refuses a second device giving the serial another holds, naming the holder', () => {
    const claims = new IdentityClaims();
    expect(claims.claim('rfid-1', READER, 'RB-0042')).toEqual({ ok: true });
    expect(claims.claim('rfid-2', READER, 'RB-0042')).toEqual({ ok: false, detail: REFUSED });
    expect(claims.holder(READER, 'RB-0042')).toBe('rfid-1');
    expect(claims.serialHeldBy('rfid-1')).toBe('RB-0042');
    expect(claims.serialHeldBy('rfid-2')).toBeUndefined();
    expect(claims.counters()).toEqual({ held: 1, refused: 1 });
  });

  it('lets the holder say hello again, and tells kinds apart', () => {
    const claims = new IdentityClaims();
    claims.claim('rfid-1', READER, 'RB-0042');
    expect(claims.claim('rfid-1', READER, 'RB-0042')).toEqual({ ok: true });
    expect(claims.claim('shuffler', 'shuffler', 'RB-0042')).toEqual({ ok: true });
    expect(claims.counters()).toEqual({ held: 2, refused: 0 });
  });

  it('frees the identity when its holder goes offline: the next to say hello holds it', () => {
    const claims = new IdentityClaims();
    claims.claim('rfid-1', READER, 'RB-0042');
    claims.claim('rfid-2', READER, 'RB-0042');
    claims.release('rfid-1');
    expect(claims.holder(READER, 'RB-0042')).toBeUndefined();
    expect(claims.claim('rfid-2', READER, 'RB-0042')).toEqual({ ok: true });
    expect(claims.claim('rfid-1', READER, 'RB-0042')).toMatchObject({ ok: false });
    // Releasing a device that holds nothing (the one refused) changes nothing.
    claims.release('rfid-1');
    expect(claims.holder(READER, 'RB-0042')).toBe('rfid-2');
  });

  it('moves a device that says hello with another serial: its old one is free', () => {
    const claims = new IdentityClaims();
    claims.claim('rfid-1', READER, 'RB-0042');
    claims.claim('rfid-1', READER, 'RB-0043');
    expect(claims.holder(READER, 'RB-0042')).toBeUndefined();
    expect(claims.claim('rfid-2', READER, 'RB-0042')).toEqual({ ok: true });
    expect(claims.counters()).toEqual({ held: 2, refused: 0 });
  });

  it('does not confuse a kind and serial that run together', () => {
    const claims = new IdentityClaims();
    claims.claim('a', 'rfid', 'reader RB');
    expect(claims.claim('b', 'rfid reader', 'RB')).toEqual({ ok: true });
  });

  it('judges a hello with judgeHello and the claims together, as a driver would', () => {
    const claims = new IdentityClaims();
    const expected = { kind: READER, called: 'an rfid-reader' };
    const hello = { kind: READER, serial: 'RB-0042', firmware: '1.2.3' };
    const first = claims.judged('rfid-1', READER, judgeHello(hello, expected));
    expect(first).toEqual({ ok: true, serial: 'RB-0042', firmware: '1.2.3' });
    expect(claims.judged('rfid-2', READER, judgeHello(hello, expected))).toEqual({
      ok: false,
      detail: REFUSED,
    });
    // The holder replaced by a device of another kind: refused by judgeHello, and the serial is free.
    const shuffler = judgeHello({ ...hello, kind: 'shuffler' }, expected);
    expect(claims.judged('rfid-1', READER, shuffler)).toEqual(shuffler);
    expect(claims.judged('rfid-2', READER, judgeHello(hello, expected))).toMatchObject({ ok: true });
  });
});
