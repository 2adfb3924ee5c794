import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseConfig } from '../../src/config/config.js';
import { DEPLOY, fakeCommands } from './fake-commands.js';

/**
 * deploy/install.sh run with bash into a throwaway root (CROUPIER_ROOT), every system command it calls
 * faked and logged: apt-get, curl, gpg, node, npm, useradd, id, chown, udevadm, systemctl and croupier
 * itself. What it installs is a small stand-in for a croupier tree.
 */
function table() {
  const system = fakeCommands({
    'apt-get': '',
    curl: 'echo KEY',
    gpg: 'while [ $# -gt 0 ]; do [ "$1" = -o ] && { cat > "$2"; break; }; shift; done',
    node: 'echo "$FAKE_NODE_VERSION"',
    // npm logs the folder it works in.
    npm: 'echo "  in $PWD" >> "$(dirname "$0")/../calls.log"',
    // Users live in a file: `id` finds those `useradd` made.
    useradd: 'for user; do :; done; echo "$user" >> "$(dirname "$0")/../users"',
    id: 'grep -qx "$2" "$(dirname "$0")/../users" 2>/dev/null',
    chown: '',
    udevadm: '',
    systemctl: '',
    croupier: 'echo "✓ config: /etc/croupier/croupier.yaml"',
  });
  const root = join(system.dir, 'root');
  const source = join(system.dir, 'croupier');
  mkdirSync(root);
  const release = (version: string) => {
    mkdirSync(join(source, 'bin'), { recursive: true });
    mkdirSync(join(source, 'node_modules/serialport'), { recursive: true });
    writeFileSync(
      join(source, 'package.json'),
      `{\n  "name": "croupier",\n  "version": "${version}",\n  "private": true\n}\n`,
    );
    writeFileSync(join(source, 'bin/croupier.js'), `// croupier ${version}\n`);
  };
  release('0.1.0');
  const at = (path: string) => join(root, path);
  return {
    ...system,
    root,
    at,
    read: (path: string) => readFileSync(at(path), 'utf8'),
    release,
    install: (args: readonly string[], env: Record<string, string> = {}) =>
      system.run('install.sh', args, {
        CROUPIER_ROOT: root,
        CROUPIER_SOURCE: source,
        FAKE_NODE_VERSION: '20.19.0',
        ...env,
      }),
  };
}

const FIRST = [
  '--table',
  'table-7',
  '--reader',
  '2E8A:000A',
  '--shuffler',
  '0403:6001:A50285BI',
  '--keypad',
  '1209:0001',
];

const PACKAGES = 'ca-certificates curl gnupg libusb-1.0-0 libudev1 build-essential python3';

/** The rules lines that name devices (the rest are comments). */
const ruleLines = (rules: string) => rules.split('\n').filter((line) => line && !line.startsWith('#'));

describe('install.sh: a first install', () => {
  it('installs packages, users, the release, the config, udev rules and services, then runs doctor', () => {
    const pi = table();
    const { status, stdout, stderr } = pi.install(FIRST);
    expect(stderr).toBe('');
    expect(status).toBe(0);
    const release = readlinkSync(pi.at('opt/croupier/current'));
    expect(release).toMatch(/^\/opt\/croupier\/releases\/0\.1\.0-\d{8}T\d{6}Z$/);
    expect(pi.calls()).toEqual([
      'apt-get update -qq',
      `apt-get install -y -qq --no-install-recommends ${PACKAGES} chromium cage fonts-dejavu-core`,
      'node -p process.versions.node',
      'id -u croupier',
      'useradd --system --user-group --home-dir /var/lib/croupier --no-create-home --shell /usr/sbin/nologin --comment croupier table controller croupier',
      'id -u croupier-kiosk',
      'useradd --system --user-group --home-dir /var/lib/croupier-kiosk --no-create-home --shell /usr/sbin/nologin --comment croupier kiosk browser croupier-kiosk',
      'npm ci --no-audit --no-fund',
      `  in ${pi.root}${release}`,
      'npm run build',
      `  in ${pi.root}${release}`,
      'npm prune --omit=dev --no-audit --no-fund',
      `  in ${pi.root}${release}`,
      `chown root:croupier ${pi.at('etc/croupier')} ${pi.at('etc/croupier/decks')}`,
      `chown root:croupier ${pi.at('etc/croupier/croupier.yaml')}`,
      `chown croupier:croupier ${pi.at('var/lib/croupier')}`,
      'udevadm control --reload-rules',
      'udevadm trigger --subsystem-match=tty --subsystem-match=hidraw --subsystem-match=input',
      'udevadm settle',
      'systemctl daemon-reload',
      'systemctl restart systemd-journald.service',
      'systemctl enable croupier.service croupier-kiosk.service',
      'systemctl restart croupier.service croupier-kiosk.service',
      'croupier doctor --config /etc/croupier/croupier.yaml',
    ]);
    expect(stdout).toContain('croupier install: wrote /etc/croupier/croupier.yaml for table table-7\n');
    expect(stdout).toMatch(
      /croupier install: done; what croupier doctor finds:\n✓ config: \/etc\/croupier\/croupier.yaml\n$/,
    );
  });

  it('copies the release without the build machine’s node_modules', () => {
    const pi = table();
    pi.install(FIRST);
    const release = pi.at(readlinkSync(pi.at('opt/croupier/current')));
    expect(readdirSync(release).sort()).toEqual(['bin', 'package.json']);
  });

  it("writes the table's config from the template: valid, the devices on their udev names", () => {
    const pi = table();
    pi.install([...FIRST, '--badge', '1209:0002:B0001']);
    const text = pi.read('etc/croupier/croupier.yaml');
    expect(text).not.toMatch(/@/);
    const config = parseConfig(parse(text));
    expect(config.table.id).toBe('table-7');
    expect(config.journal.path).toBe('/var/lib/croupier/journal.db');
    expect(config.decks).toEqual({ A: '/etc/croupier/decks/A.txt', B: '/etc/croupier/decks/B.txt' });
    expect(config.devices.rfid.map((d) => [d.id, d.link])).toEqual([
      ['rfid-1', { type: 'serial', path: '/dev/croupier/reader', baudRate: 115_200 }],
    ]);
    expect(config.devices.shuffler.map((d) => [d.id, d.link])).toEqual([
      ['shuffler', { type: 'serial', path: '/dev/croupier/shuffler', baudRate: 9600 }],
    ]);
    expect(config.devices.keypad.map((d) => [d.id, d.mode, d.usb])).toEqual([
      ['keypad', 'keypad', { vendorId: '1209', productId: '0001' }],
      ['badge', 'badge', { vendorId: '1209', productId: '0002', serialNumber: 'B0001' }],
    ]);
    // Supervisors' hashes and the broker's password will live there: croupier's group reads it, no one else.
    expect(statSync(pi.at('etc/croupier/croupier.yaml')).mode & 0o777).toBe(0o640);
    expect(pi.read('etc/croupier/kiosk.env')).toBe('CROUPIER_DISPLAY_URL=http://127.0.0.1:8080/\n');
  });

  it('leaves the devices not given out of the config and the rules', () => {
    const pi = table();
    pi.install(['--table', 'table-2']);
    const config = parseConfig(parse(pi.read('etc/croupier/croupier.yaml')));
    expect(config.devices).toEqual({ rfid: [], shuffler: [], keypad: [], chips: [] });
    expect(ruleLines(pi.read('etc/udev/rules.d/99-croupier.rules'))).toEqual([]);
  });

  it('names each device by its USB ids in the udev rules, for the croupier group only', () => {
    const pi = table();
    pi.install(FIRST);
    expect(ruleLines(pi.read('etc/udev/rules.d/99-croupier.rules'))).toEqual([
      'SUBSYSTEM=="tty", ATTRS{idVendor}=="2e8a", ATTRS{idProduct}=="000a", SYMLINK+="croupier/reader", GROUP="croupier", MODE="0660"',
      'SUBSYSTEM=="tty", ATTRS{idVendor}=="0403", ATTRS{idProduct}=="6001", ATTRS{serial}=="A50285BI", SYMLINK+="croupier/shuffler", GROUP="croupier", MODE="0660"',
      'SUBSYSTEM=="hidraw", ATTRS{idVendor}=="1209", ATTRS{idProduct}=="0001", GROUP="croupier", MODE="0660"',
      'SUBSYSTEM=="input", ATTRS{idVendor}=="1209", ATTRS{idProduct}=="0001", ENV{LIBINPUT_IGNORE_DEVICE}="1"',
    ]);
  });

  it('installs the units, the log rotation and the command as they are in deploy/', () => {
    const pi = table();
    pi.install(FIRST);
    for (const [installed, shipped] of [
      ['etc/systemd/system/croupier.service', 'croupier.service'],
      ['etc/systemd/system/croupier-kiosk.service', 'croupier-kiosk.service'],
      ['etc/systemd/journald.conf.d/croupier.conf', 'journald-croupier.conf'],
      ['usr/local/bin/croupier', 'croupier.sh'],
    ] as const) {
      expect(pi.read(installed)).toBe(readFileSync(join(DEPLOY, shipped), 'utf8'));
    }
    expect(statSync(pi.at('usr/local/bin/croupier')).mode & 0o777).toBe(0o755);
    expect(statSync(pi.at('var/lib/croupier')).mode & 0o777).toBe(0o750);
  });

  it('brings Node.js 20 from NodeSource when the Pi has an older one', () => {
    const pi = table();
    expect(pi.install(FIRST, { FAKE_NODE_VERSION: '18.19.0' }).status).toBe(0);
    const calls = pi.calls();
    const node = calls.indexOf('node -p process.versions.node');
    const [curl, gpg, ...rest] = calls.slice(node + 1, node + 5);
    // A pipe: the two start together, and log in either order.
    expect([curl, gpg].sort()).toEqual([
      'curl -fsSL https://deb.nodesource.com/gpgkey/nodesource-repo.gpg.key',
      `gpg --dearmor --yes -o ${pi.at('etc/apt/keyrings/nodesource.gpg')}`,
    ]);
    expect(rest).toEqual(['apt-get update -qq', 'apt-get install -y -qq nodejs']);
    expect(pi.read('etc/apt/keyrings/nodesource.gpg')).toBe('KEY\n');
    expect(pi.read('etc/apt/sources.list.d/nodesource.list')).toBe(
      'deb [signed-by=/etc/apt/keyrings/nodesource.gpg] https://deb.nodesource.com/node_20.x nodistro main\n',
    );
  });
});

describe('install.sh: run again', () => {
  it('upgrades in place: a new release, the same users, rules and services, the config and journal kept', () => {
    const pi = table();
    expect(pi.install(FIRST).status).toBe(0);
    const first = readlinkSync(pi.at('opt/croupier/current'));
    const rules = pi.read('etc/udev/rules.d/99-croupier.rules');
    pi.calls();
    // The engineer's edits, and a night of play.
    const config = `${pi.read('etc/croupier/croupier.yaml')}# seat 3's antenna moved\n`;
    writeFileSync(pi.at('etc/croupier/croupier.yaml'), config);
    writeFileSync(pi.at('etc/croupier/kiosk.env'), 'CROUPIER_DISPLAY_URL=http://127.0.0.1:8081/\n');
    writeFileSync(pi.at('etc/croupier/decks/A.txt'), 'E004015000000001\n');
    writeFileSync(pi.at('var/lib/croupier/journal.db'), 'the night’s hands');
    pi.release('0.2.0');

    const { status, stdout } = pi.install([]);
    expect(status).toBe(0);
    const second = readlinkSync(pi.at('opt/croupier/current'));
    expect(second).toMatch(/^\/opt\/croupier\/releases\/0\.2\.0-/);
    expect(readFileSync(pi.at(`${second}/bin/croupier.js`), 'utf8')).toBe('// croupier 0.2.0\n');
    // The previous release stays for a rollback.
    expect(existsSync(pi.at(first))).toBe(true);
    expect(pi.read('etc/croupier/croupier.yaml')).toBe(config);
    expect(pi.read('etc/croupier/kiosk.env')).toBe('CROUPIER_DISPLAY_URL=http://127.0.0.1:8081/\n');
    expect(pi.read('etc/croupier/decks/A.txt')).toBe('E004015000000001\n');
    expect(pi.read('var/lib/croupier/journal.db')).toBe('the night’s hands');
    expect(pi.read('etc/udev/rules.d/99-croupier.rules')).toBe(rules);
    expect(stdout).toContain('croupier install: kept /etc/croupier/croupier.yaml\n');
    const calls = pi.calls();
    expect(calls.filter((call) => call.startsWith('useradd'))).toEqual([]);
    expect(calls).toContain('systemctl restart croupier.service croupier-kiosk.service');
  });

  it('keeps the last 3 releases', () => {
    const pi = table();
    for (const version of ['0.1.0', '0.2.0', '0.3.0', '0.4.0']) {
      pi.release(version);
      expect(pi.install(FIRST).status).toBe(0);
    }
    const kept = readdirSync(pi.at('opt/croupier/releases')).map((name) => name.split('-')[0]);
    expect(kept.sort()).toEqual(['0.2.0', '0.3.0', '0.4.0']);
  });

  it('takes new ids for a device, and "none" for one gone, keeping the others', () => {
    const pi = table();
    pi.install(FIRST);
    expect(pi.install(['--reader', '2e8a:000b', '--keypad', 'none']).status).toBe(0);
    expect(ruleLines(pi.read('etc/udev/rules.d/99-croupier.rules'))).toEqual([
      'SUBSYSTEM=="tty", ATTRS{idVendor}=="2e8a", ATTRS{idProduct}=="000b", SYMLINK+="croupier/reader", GROUP="croupier", MODE="0660"',
      'SUBSYSTEM=="tty", ATTRS{idVendor}=="0403", ATTRS{idProduct}=="6001", ATTRS{serial}=="A50285BI", SYMLINK+="croupier/shuffler", GROUP="croupier", MODE="0660"',
    ]);
    expect(pi.read('etc/croupier/install.env')).toContain("KEYPAD=''\n");
  });

  it('takes the kiosk away when told to', () => {
    const pi = table();
    pi.install(FIRST);
    pi.calls();
    expect(pi.install(['--no-kiosk']).status).toBe(0);
    const calls = pi.calls();
    expect(calls[1]).toBe(`apt-get install -y -qq --no-install-recommends ${PACKAGES}`);
    expect(calls).toContain('systemctl disable --now croupier-kiosk.service');
    expect(calls).toContain('systemctl enable croupier.service');
    expect(existsSync(pi.at('etc/systemd/system/croupier-kiosk.service'))).toBe(false);
  });
});

describe('install.sh: the UPS hat', () => {
  it("sets its shutdown pin in the Pi's boot config, once", () => {
    const pi = table();
    mkdirSync(pi.at('boot/firmware'), { recursive: true });
    writeFileSync(pi.at('boot/firmware/config.txt'), 'dtparam=audio=on\n');
    expect(pi.install([...FIRST, '--ups-gpio', '17']).status).toBe(0);
    expect(pi.install(['--ups-gpio', '27']).status).toBe(0);
    expect(pi.install([]).status).toBe(0);
    expect(pi.read('boot/firmware/config.txt')).toBe(
      'dtparam=audio=on\ndtoverlay=gpio-shutdown,gpio_pin=27\n',
    );
  });

  it('refuses it off a Raspberry Pi', () => {
    const pi = table();
    const { status, stderr } = pi.install([...FIRST, '--ups-gpio', '17']);
    expect(status).toBe(2);
    expect(stderr).toBe('croupier install: no /boot/firmware/config.txt: --ups-gpio is for a Raspberry Pi\n');
  });
});

describe('install.sh: options it refuses, before touching anything', () => {
  const refused = (args: readonly string[]) => {
    const pi = table();
    const { status, stderr } = pi.install(args);
    expect(status).toBe(2);
    expect(pi.calls()).toEqual([]);
    expect(readdirSync(pi.root)).toEqual([]);
    return stderr.split('\n').at(-2);
  };

  it('needs the table the first time', () => {
    expect(refused(['--reader', '2e8a:000a'])).toBe(
      'croupier install: --table is needed the first time (e.g. --table table-7)',
    );
  });

  it('takes ids as lsusb prints them', () => {
    expect(refused(['--table', 't', '--reader', '2e8a'])).toBe(
      'croupier install: --reader 2e8a: give VID:PID as lsusb prints them, then :SERIAL if need be (0403:6001:A50285BI)',
    );
    expect(refused(['--table', 't', '--keypad', '1209:0001:"; rm -rf /'])).toMatch(
      /^croupier install: --keypad /,
    );
    expect(refused(['--table', 'table 7'])).toBe(
      'croupier install: --table: 1 to 32 letters, digits, - or _',
    );
  });

  it('will not name two devices udev cannot tell apart', () => {
    expect(refused(['--table', 't', '--reader', '0403:6001', '--shuffler', '0403:6001:A5'])).toBe(
      'croupier install: the reader and the shuffler are both 0403:6001: give each its serial number (--reader 0403:6001:SERIAL)',
    );
    expect(refused(['--table', 't', '--keypad', '1209:0001:K1', '--badge', '1209:0001:K1'])).toBe(
      'croupier install: the keypad and the badge are both 1209:0001: give each its serial number (--keypad 1209:0001:SERIAL)',
    );
    expect(
      table().install(['--table', 't', '--reader', '0403:6001:A1', '--shuffler', '0403:6001:B2']).status,
    ).toBe(0);
  });

  it('says what it takes', () => {
    expect(refused(['--frobnicate'])).toBe('croupier install: unknown option --frobnicate');
    const { status, stdout } = table().install(['--help']);
    expect(status).toBe(0);
    expect(stdout).toMatch(/^usage: sudo bash deploy\/install.sh/);
  });
});
