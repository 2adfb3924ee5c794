import { type CroupierConfig, loadConfig, parseConfig } from '../config/config.js';
import { registryFromConfig } from '../config/decks.js';
import { ConfigError } from '../config/problems.js';
import { PROFILE_IDS } from '../rules/index.js';
import { blocks, type Check, passed } from './check.js';

/** The config file install.sh writes, which doctor reads when it is not told another. */
export const INSTALLED_CONFIG = '/etc/croupier/croupier.yaml';

const RESTART = 'then sudo systemctl restart croupier';

/** The config as `croupier start` reads it, or the check that says why it would refuse it. */
export async function checkConfig(
  file: string | undefined,
): Promise<{ check: Check; config?: CroupierConfig }> {
  if (file === undefined) {
    return { check: passed('config', 'no file: every key takes its default'), config: parseConfig({}) };
  }
  try {
    return { check: passed('config', file), config: await loadConfig(file) };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return {
      check: blocks('config', error.message.replaceAll('\n', '; '), configAdvice(file, error.message)),
    };
  }
}

function configAdvice(file: string, message: string): string {
  if (/cannot read the config: ENOENT/.test(message)) {
    return `sudo bash deploy/install.sh writes ${INSTALLED_CONFIG}; or give --config the table's config`;
  }
  if (/cannot read the config/.test(message)) {
    return `croupier's user reads it: sudo chown root:croupier ${file} && sudo chmod 0640 ${file}`;
  }
  // A refused rulebook is most often a typo or a profile this version does not have yet: name those it has.
  const profiles = /\btable\.profile\b/.test(message)
    ? `; table.profile is one of ${PROFILE_IDS.join(', ')}`
    : '';
  return `correct the keys named in ${file} (README.md lists them${profiles}), ${RESTART}`;
}

/** Each deck's list of tag UIDs, read and registered as at start. */
export async function checkDecks(config: CroupierConfig): Promise<Check> {
  try {
    await registryFromConfig(config.decks);
    return passed('decks', Object.keys(config.decks).join(', '));
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return blocks(
      'decks',
      error.message,
      `put each deck's file there: its 52 tag UIDs, one a line, in face order (2s…As, 2h…, 2d…, 2c…) as the card maker ships them, ${RESTART}`,
    );
  }
}
