import { describe, expect, it } from 'vitest';
import { checkBroker } from '../../../src/doctor/broker.js';
import { blocks, passed, warns } from '../../../src/doctor/check.js';
import { config, errno, fakeSystem } from './fake-system.js';

const CASINO = 'mqtts://broker.casino.lan:8883';
const external = (more: object = {}) => config({ mqtt: { url: CASINO, ...more } });
const failing = (error: Error) => fakeSystem({ mqttConnect: async () => Promise.reject(error) });
const notAuthorized = () => Object.assign(new Error('Connection refused: Not authorized'), { code: 5 });

describe("doctor: the casino's broker", () => {
  it('passes a broker that takes croupier, with its credentials', async () => {
    const calls: unknown[] = [];
    const system = fakeSystem({ mqttConnect: async (...args) => void calls.push(args) });
    expect(await checkBroker(external({ username: 'table-7', password: 'pw' }), system, 'nothing')).toEqual(
      passed('broker', CASINO),
    );
    expect(calls).toEqual([[CASINO, { username: 'table-7', password: 'pw' }]]);
  });

  it('lets the table play without it, unless devices come over it', async () => {
    const refused = failing(errno('ECONNREFUSED'));
    const advice = 'the broker is down or listens on another port: ask who runs it, and check mqtt.url';
    expect(await checkBroker(external(), refused, 'nothing')).toEqual(
      warns('broker', `${CASINO} refuses connections: the table plays, the floor does not see it`, advice),
    );
    const chips = config({ mqtt: { url: CASINO }, devices: { chips: [{ id: 'chips-1' }] } });
    expect(await checkBroker(chips, refused, 'nothing')).toEqual(
      blocks('broker', `${CASINO} refuses connections, and devices chips-1 come over it`, advice),
    );
    const bridged = config({
      mqtt: { url: CASINO },
      devices: { rfid: [{ id: 'rfid-1', link: { type: 'bridge' } }] },
    });
    expect((await checkBroker(bridged, refused, 'nothing')).problem).toBe(
      `${CASINO} refuses connections, and devices rfid-1 come over it`,
    );
  });

  it('says what to check for each way of failing', async () => {
    const said = async (error: Error) => {
      const { problem, advice } = await checkBroker(external(), failing(error), 'nothing');
      return { problem, advice };
    };
    const playsOn = ': the table plays, the floor does not see it';
    expect(await said(errno('ENOTFOUND'))).toEqual({
      problem: `${CASINO} is a name the Pi cannot resolve${playsOn}`,
      advice: "check mqtt.url, and the Pi's DNS (`getent hosts broker.casino.lan`)",
    });
    expect(await said(errno('ETIMEDOUT'))).toEqual({
      problem: `${CASINO} does not answer${playsOn}`,
      advice: 'a firewall or a cable between the Pi and broker.casino.lan? `ping broker.casino.lan` tells',
    });
    expect(await said(notAuthorized())).toEqual({
      problem: `${CASINO} refuses croupier: Connection refused: Not authorized${playsOn}`,
      advice: 'check mqtt.url, mqtt.username and mqtt.password with whoever runs the broker',
    });
    expect(await said(errno('CERT_NOT_YET_VALID', 'certificate is not yet valid'))).toEqual({
      problem: `${CASINO} refuses croupier: certificate is not yet valid${playsOn}`,
      advice:
        "the broker's certificate is refused: set the clock right if it is wrong, else ask who runs the broker",
    });
  });
});

describe("doctor: croupier's own broker", () => {
  const URL = 'mqtt://127.0.0.1:1883';

  it('passes a free port', async () => {
    expect(await checkBroker(config(), fakeSystem(), 'nothing')).toEqual(
      passed('broker', `${URL} is free for croupier's own broker`),
    );
  });

  it('passes croupier holding it', async () => {
    const system = fakeSystem({ mqttConnect: async () => undefined });
    expect(await checkBroker(config(), system, 'croupier')).toEqual(
      passed('broker', `croupier's own broker answers on ${URL}`),
    );
  });

  it('blocks on another broker on its port, one that asks for a password too', async () => {
    const another = blocks(
      'broker',
      `another broker holds ${URL}, where croupier runs its own`,
      `stop it (mosquitto: sudo systemctl disable --now mosquitto), or make it the table's broker with mqtt.url: ${URL}`,
    );
    expect(
      await checkBroker(config(), fakeSystem({ mqttConnect: async () => undefined }), 'nothing'),
    ).toEqual(another);
    expect(await checkBroker(config(), failing(notAuthorized()), 'nothing')).toEqual(another);
  });

  it('blocks on a program that is not a broker on its port', async () => {
    const port = config({ mqtt: { embedded: { port: 1884 } } });
    expect(await checkBroker(port, failing(errno('ETIMEDOUT', 'no answer')), 'nothing')).toEqual(
      blocks(
        'broker',
        'a program that is not an MQTT broker holds mqtt://127.0.0.1:1884 (no answer)',
        "`sudo ss -ltnp 'sport = :1884'` names it: stop it, or give croupier another mqtt.embedded.port",
      ),
    );
  });
});
