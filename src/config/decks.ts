import { readFile } from 'node:fs/promises';
import { FACES } from '../domain/cards.js';
import { DeckRegistry, RegistryError, scenarioUid } from '../domain/deck-registry.js';
import { ConfigError } from './problems.js';

/** The deck registry the config describes: simulated decks get the simulators' tags, others their file's. */
export async function registryFromConfig(decks: Readonly<Record<string, string>>): Promise<DeckRegistry> {
  const registry = new DeckRegistry();
  for (const [deckId, source] of Object.entries(decks)) {
    const uids =
      source === 'simulated'
        ? FACES.map((face) => scenarioUid(deckId, face))
        : await readDeckList(deckId, source);
    try {
      registry.registerDeck(deckId, uids);
    } catch (error) {
      if (error instanceof RegistryError) throw new ConfigError(`decks.${deckId}: ${error.message}`);
      throw error;
    }
  }
  return registry;
}

/** One UID per line; blank lines and `#` comments are skipped. */
async function readDeckList(deckId: string, file: string): Promise<string[]> {
  try {
    return (await readFile(file, 'utf8'))
      .split('\n')
      .map((line) => line.replace(/#.*/, '').trim())
      .filter(Boolean);
  } catch (error) {
    throw new ConfigError(`decks.${deckId}: cannot read ${file}: ${(error as Error).message}`);
  }
}
