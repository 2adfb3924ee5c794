import { describe, expect, it } from 'vitest';
import { blocks, passed, warns } from '../../../src/doctor/check.js';
import { checkDisplay } from '../../../src/doctor/display.js';
import { croupierRunning, displayUrl } from '../../../src/doctor/running.js';
import { config, croupierAnswers, fakeSystem } from './fake-system.js';

const URL = 'http://127.0.0.1:8080/';

describe('doctor: is croupier running', () => {
  it('knows croupier by its table on /healthz', async () => {
    expect(await croupierRunning(config(), fakeSystem({ fetch: croupierAnswers() }))).toBe('croupier');
    expect(await croupierRunning(config(), fakeSystem({ fetch: croupierAnswers('table-9') }))).toEqual({
      other: 200,
    });
    const notFound = fakeSystem({ fetch: async () => ({ status: 404, body: 'Not Found' }) });
    expect(await croupierRunning(config(), notFound)).toEqual({ other: 404 });
    expect(await croupierRunning(config(), fakeSystem())).toBe('nothing');
  });

  it('reaches one listening on every address on loopback', () => {
    expect(displayUrl(config({ http: { host: '0.0.0.0', port: 80 } }))).toBe('http://127.0.0.1:80/');
    expect(displayUrl(config({ http: { host: '::' } }))).toBe('http://[::1]:8080/');
    expect(displayUrl(config({ http: { host: '192.168.1.7' } }))).toBe('http://192.168.1.7:8080/');
  });
});

describe('doctor: the display', () => {
  it('passes the page croupier serves', async () => {
    const system = fakeSystem({ fetch: croupierAnswers() });
    expect(await checkDisplay(config(), system, 'croupier')).toEqual(passed('display', URL));
  });

  it('blocks on a missing page', async () => {
    const system = fakeSystem({ fetch: croupierAnswers('table-1', 404) });
    expect(await checkDisplay(config(), system, 'croupier')).toEqual(
      blocks(
        'display',
        `${URL} answers HTTP 404: the display's page is missing`,
        'the release was not built whole: run deploy/install.sh again',
      ),
    );
  });

  it('says to start croupier when it is not running', async () => {
    expect(await checkDisplay(config(), fakeSystem(), 'nothing')).toEqual(
      warns(
        'display',
        `croupier is not running, so ${URL} cannot be checked`,
        'sudo systemctl start croupier; if it stops again, `journalctl -u croupier -n 50` says why',
      ),
    );
  });

  it('blocks on another program on its port', async () => {
    expect(await checkDisplay(config(), fakeSystem(), { other: 404 })).toEqual(
      blocks(
        'display',
        `another program answers on ${URL} (HTTP 404), where croupier serves the display`,
        'stop it, or give croupier another http.port (and the kiosk its URL in /etc/croupier/kiosk.env)',
      ),
    );
  });

  it('blocks when the page does not answer', async () => {
    expect(await checkDisplay(config(), fakeSystem(), 'croupier')).toEqual(
      blocks('display', `${URL} did not answer: fetch failed`, 'sudo systemctl restart croupier'),
    );
  });
});
