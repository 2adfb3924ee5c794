import { parseArgs } from 'node:util';

// Each command imports what it runs when it runs: a replay or a hash does not load the web server,
// the broker and the serial ports (half a second of a replay's start).

const USAGE = `usage: croupier replay FILE... [--check]
       croupier start [--config FILE] [--demo]
       croupier bridge --table ID --device ID --serial PATH --mqtt URL [--baud N]
       croupier journal verify --journal PATH
       croupier hands [--journal PATH | --config FILE] [--last N]
       croupier hand N... [--journal PATH | --config FILE]
       croupier hash-secret < secret
       croupier mqtt-acl [--config FILE]
       croupier floor --mqtt URL [--config FILE] [--port N] [--tables ID,…]
       croupier doctor [--config FILE]
       croupier asyncapi
       croupier table-chart

  replay     run scenario files through the table machine, one JSON line per incident or prompt
    FILE       a scenario file (.yaml, .yml, .json), or a directory: the scenario files in it
    --check    compare each file's incidents with its expect; exit 1 on any difference
  start      run the table controller (HTTP /healthz, MQTT, devices) until SIGINT or SIGTERM
    --config   the config file (YAML or JSON); without it every key takes its default
    --demo     no hardware: a virtual table's simulated devices play hands round and round
  bridge     expose a serial device (reader board, shuffler) on the table's broker, so that it can
             hang off another computer; the controller's config then says link: { type: bridge }
             (--username, and CROUPIER_MQTT_PASSWORD in the environment, for a broker that asks)
  journal verify
             check the journal's hash chain; exit 1 naming each broken record (the first first, and
             who cleared it) or a halt no supervisor has cleared
    --journal  the journal file
  hands      the last hands in the journal (default 20), one line each with their rulings, and the
             broken journal record a hand holds or follows
  hand       hands in full as JSON Lines: every event (hole cards included) and every ruling, in order;
             --journal, or the config's journal.path (default ./croupier-journal.db)
  hash-secret
             read a supervisor's PIN or badge UID (or an MQTT user's password) on stdin, print the salted
             hash for the config
  mqtt-acl   print the Mosquitto ACL file for the config's table and mqtt.users (an external broker)
  floor      the floor supervisors' service: every table of the card room on one page (HTTP, default
             port 8090), read from the casino broker's public topics, until SIGINT or SIGTERM
    --tables   the tables it shows: ids, or + for every table (one service per pit)
  doctor     check this table's installation (config, decks, devices, broker, journal, disk, clock,
             display): a line each, what is wrong and what to do; exit 1 when something blocks play
    --config   the config file (default /etc/croupier/croupier.yaml when there is one)
  asyncapi   print the AsyncAPI document of croupier's MQTT topics
  table-chart
             print the table machine's statechart, to open in Stately's visualiser (stately.ai/viz)
`;

/** One command line; resolves to the exit code: 0 ok, 1 a check found differences, 2 bad usage or input. */
async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parseCommandLine>;
  try {
    parsed = parseCommandLine(argv);
  } catch (error) {
    // parseArgs throws only for a command line it refuses (unknown option, option value where none goes).
    process.stderr.write(`croupier: ${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const [command, ...files] = positionals;
  const foreign = foreignOption(command, values);
  if (foreign !== undefined) {
    process.stderr.write(`croupier: ${command} takes no --${foreign}\n${USAGE}`);
    return 2;
  }
  switch (command) {
    case 'replay':
      if (files.length > 0)
        return (await import('./replay.js')).replay(files, { check: values.check ?? false });
      break;
    case 'start':
      if (files.length === 0) {
        const { start } = await import('./start.js');
        return stopped(await start({ configFile: values.config, demo: values.demo ?? false }));
      }
      break;
    case 'bridge':
      if (files.length === 0) return stopped(await (await import('./bridge.js')).bridge(values));
      break;
    case 'journal':
      if (files.length === 1 && files[0] === 'verify' && values.journal)
        return (await import('./journal.js')).journalVerify(values.journal);
      break;
    case 'hands':
      if (files.length === 0) return (await import('./hands.js')).hands(values);
      break;
    case 'hand':
      if (files.length > 0) return (await import('./hands.js')).hand(files, values);
      break;
    case 'hash-secret':
      if (files.length === 0) return (await import('./hash-secret.js')).hashSecretFromStdin();
      break;
    case 'mqtt-acl':
      if (files.length === 0) return (await import('./mqtt-acl.js')).mqttAcl(values.config);
      break;
    case 'floor':
      if (files.length === 0) return stopped(await (await import('./floor.js')).floor(values));
      break;
    case 'doctor':
      if (files.length === 0) return (await import('./doctor.js')).doctor({ config: values.config });
      break;
    case 'asyncapi': {
      const [{ stringify }, { asyncApiDocument }, { VERSION }] = await Promise.all([
        import('yaml'),
        import('../mqtt/asyncapi.js'),
        import('../version.js'),
      ]);
      process.stdout.write(stringify(asyncApiDocument(VERSION)));
      return 0;
    }
    case 'table-chart':
      process.stdout.write((await import('../table/chart.js')).chartSource());
      return 0;
    case undefined:
      break;
    default:
      process.stderr.write(`croupier: unknown command "${command}"\n`);
  }
  process.stderr.write(USAGE);
  return 2;
}

/**
 * A stopped controller or bridge has closed what it opened; a socket some library keeps must not hold
 * systemd's stop (or the shell) hostage.
 */
function stopped(code: number): never {
  process.exit(code);
}

type OptionName = keyof ReturnType<typeof parseCommandLine>['values'];

/** The options each command takes; any other given to it is refused, not ignored. */
const COMMAND_OPTIONS: Readonly<Record<string, readonly OptionName[]>> = {
  replay: ['check'],
  start: ['config', 'demo'],
  bridge: ['table', 'device', 'serial', 'mqtt', 'baud', 'username'],
  journal: ['journal'],
  hands: ['journal', 'config', 'last'],
  hand: ['journal', 'config'],
  'hash-secret': [],
  'mqtt-acl': ['config'],
  floor: ['mqtt', 'config', 'port', 'tables'],
  doctor: ['config'],
  asyncapi: [],
  'table-chart': [],
};

/** An option given that `command` does not take (`--help` goes with any). */
function foreignOption(command: string | undefined, values: Record<string, unknown>): string | undefined {
  const takes = command === undefined ? undefined : COMMAND_OPTIONS[command];
  if (takes === undefined) return undefined;
  return Object.keys(values).find((name) => name !== 'help' && !takes.includes(name as OptionName));
}

function parseCommandLine(argv: string[]) {
  return parseArgs({
    args: argv,
    options: {
      check: { type: 'boolean' },
      config: { type: 'string' },
      demo: { type: 'boolean' },
      table: { type: 'string' },
      device: { type: 'string' },
      serial: { type: 'string' },
      baud: { type: 'string' },
      mqtt: { type: 'string' },
      port: { type: 'string' },
      tables: { type: 'string' },
      username: { type: 'string' },
      journal: { type: 'string' },
      last: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
  });
}

// Output piped into `head` (or a closed pager) ends the command quietly, not with a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(0);
});
process.exitCode = await main(process.argv.slice(2));
