import { YAMLError } from 'yaml';
import { parseYamlDocument } from '../config/yaml.js';
import { ScenarioError } from './errors.js';

/**
 * A scenario file's text as plain values. JSON, as long recordings are, is read by JSON.parse, a hundred
 * times faster than the YAML parser; the YAML parser reads the rest, and explains what JSON.parse refuses
 * (its message names line and column). A malformed text throws a `ScenarioError`.
 */
export function parseScenarioDocument(text: string, fileName: string): unknown {
  return (parseJson(text) ?? parseYaml(text, fileName)).document;
}

/** The document when `text` is JSON that writes no key twice in an object (JSON.parse keeps the last). */
function parseJson(text: string): { document: unknown } | undefined {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    return undefined;
  }
  return keysIn(document) === keysWritten(text) ? { document } : undefined;
}

/** Keys of every object in a parsed JSON document. */
function keysIn(document: unknown): number {
  let count = 0;
  const pending: object[] = [];
  const visit = (value: unknown) => {
    if (value !== null && typeof value === 'object') pending.push(value);
  };
  visit(document);
  for (let value = pending.pop(); value !== undefined; value = pending.pop()) {
    if (Array.isArray(value)) value.forEach(visit);
    else {
      for (const key in value) {
        count++;
        visit((value as Record<string, unknown>)[key]);
      }
    }
  }
  return count;
}

/** Keys written in a JSON text: its colons outside strings. */
function keysWritten(text: string): number {
  const QUOTE = 0x22;
  const BACKSLASH = 0x5c;
  const COLON = 0x3a;
  let count = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === BACKSLASH) i++;
      else if (char === QUOTE) inString = false;
    } else if (char === QUOTE) inString = true;
    else if (char === COLON) count++;
  }
  return count;
}

/** The YAML parser's reading; its refusal, as a ScenarioError in one line that names the place. */
function parseYaml(text: string, fileName: string): { document: unknown } {
  try {
    // Scenario files reuse actions through aliases; the limit still stops a "billion laughs" file.
    return { document: parseYamlDocument(text, 10_000) };
  } catch (error) {
    // The parser's message quotes the offending lines: keep its first line, which names the place.
    const first = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
    const message = first.replace(/:$/, '');
    if (error instanceof YAMLError || error instanceof Error) throw new ScenarioError(fileName, [], message);
    throw error;
  }
}
