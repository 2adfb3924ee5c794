import { type CroupierConfig, loadConfig, parseConfig } from '../config/config.js';

/** The config file named on the command line (its defaults without one), or null once the refusal is said. */
export async function readConfig(file: string | undefined): Promise<CroupierConfig | null> {
  try {
    return file === undefined ? parseConfig({}) : await loadConfig(file);
  } catch (error) {
    process.stderr.write(`croupier: ${(error as Error).message}\n`);
    return null;
  }
}
