import type { CroupierConfig } from '../config/config.js';
import { messageOf } from '../io/serial.js';
import { blocks, type Check, errnoOf, passed, warns } from './check.js';
import { type Running, reachable } from './running.js';
import type { DoctorSystem } from './system.js';

/**
 * The table's broker: the casino's answers and takes croupier's credentials; or, for croupier's own, its
 * port is free for it or croupier holds it. Without a broker the table plays on (its messages wait), unless
 * devices come over it: chip sensors, bridged readers and shufflers.
 */
export async function checkBroker(
  config: CroupierConfig,
  system: DoctorSystem,
  running: Running,
): Promise<Check> {
  const { url, embedded, username, password } = config.mqtt;
  if (url === undefined)
    return checkEmbedded(`mqtt://${reachable(embedded.host)}:${embedded.port}`, system, running);
  try {
    await system.mqttConnect(url, { ...(username && { username }), ...(password && { password }) });
    return passed('broker', url);
  } catch (error) {
    const needed = devicesOverBroker(config);
    const problem = `${url} ${unreachable(error)}`;
    const advice = brokerAdvice(error, url);
    return needed
      ? blocks('broker', `${problem}, and ${needed} come over it`, advice)
      : warns('broker', `${problem}: the table plays, the floor does not see it`, advice);
  }
}

async function checkEmbedded(url: string, system: DoctorSystem, running: Running): Promise<Check> {
  const port = new URL(url).port;
  try {
    await system.mqttConnect(url, {});
  } catch (error) {
    if (errnoOf(error) === 'ECONNREFUSED') {
      return passed('broker', `${url} is free for croupier's own broker`);
    }
    // A broker that asks clients to sign in (croupier's own does with mqtt.users) answered all the same.
    if (!refusedByBroker(error)) {
      return blocks(
        'broker',
        `a program that is not an MQTT broker holds ${url} (${messageOf(error)})`,
        `\`sudo ss -ltnp 'sport = :${port}'\` names it: stop it, or give croupier another mqtt.embedded.port`,
      );
    }
  }
  if (running === 'croupier') return passed('broker', `croupier's own broker answers on ${url}`);
  return blocks(
    'broker',
    `another broker holds ${url}, where croupier runs its own`,
    `stop it (mosquitto: sudo systemctl disable --now mosquitto), or make it the table's broker with mqtt.url: ${url}`,
  );
}

/** mqtt.js's error for a CONNACK that refuses the client carries the MQTT return code, a number. */
function refusedByBroker(error: unknown): boolean {
  return typeof (error as { code?: unknown } | null)?.code === 'number';
}

/** What of the table comes over the broker, in words, or '' for nothing. */
function devicesOverBroker({ devices }: CroupierConfig): string {
  const bridged = [...devices.rfid, ...devices.shuffler].filter((d) => d.link.type === 'bridge');
  const ids = [...devices.chips, ...bridged].map((d) => d.id);
  return ids.length > 0 ? `devices ${ids.join(', ')}` : '';
}

function unreachable(error: unknown): string {
  switch (errnoOf(error)) {
    case 'ECONNREFUSED':
      return 'refuses connections';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'is a name the Pi cannot resolve';
    case 'ETIMEDOUT':
      return 'does not answer';
    default:
      return `refuses croupier: ${messageOf(error)}`;
  }
}

function brokerAdvice(error: unknown, url: string): string {
  const host = new URL(url).hostname;
  const code = errnoOf(error) ?? '';
  // A Pi has no battery clock: after a cut without network its clock is behind, and certificates not yet valid.
  if (/^(CERT_|ERR_TLS_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO)/.test(code)) {
    return "the broker's certificate is refused: set the clock right if it is wrong, else ask who runs the broker";
  }
  switch (code) {
    case 'ECONNREFUSED':
      return 'the broker is down or listens on another port: ask who runs it, and check mqtt.url';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `check mqtt.url, and the Pi's DNS (\`getent hosts ${host}\`)`;
    case 'ETIMEDOUT':
      return `a firewall or a cable between the Pi and ${host}? \`ping ${host}\` tells`;
    default:
      return 'check mqtt.url, mqtt.username and mqtt.password with whoever runs the broker';
  }
}
