import { parseArgs } from 'node:util';
import { replay } from './replay.js';

const USAGE = `usage: croupier replay FILE... [--check]

  FILE      a scenario file (.yaml, .yml, .json), or a directory: the scenario files in it
  --check   compare each file's incidents with its expect; exit 1 on any difference
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
  if (parsed.values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const [command, ...files] = parsed.positionals;
  if (command !== 'replay' || files.length === 0) {
    if (command !== undefined && command !== 'replay')
      process.stderr.write(`croupier: unknown command "${command}"\n`);
    process.stderr.write(USAGE);
    return 2;
  }
  return replay(files, { check: parsed.values.check ?? false });
}

function parseCommandLine(argv: string[]) {
  return parseArgs({
    args: argv,
    options: { check: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
  });
}

process.exitCode = await main(process.argv.slice(2));
