import { parse } from 'yaml';

/**
 * Values a YAML document may gain through its aliases over what its text spells out. An alias is a few
 * characters standing for its whole anchor, and the schemas that check the document walk every use of it:
 * the parser's alias count alone lets a 200 kB file of aliases to one long list take minutes and gigabytes
 * to refuse (and an alias inside its own anchor is endless).
 */
export const MAX_ALIAS_EXPANSION = 100_000;

/**
 * A YAML (or JSON, which is YAML) document as plain values. Throws an Error whose message's first line
 * says what is wrong and where: the parser's own, or that aliases expand the document too far.
 */
export function parseYamlDocument(text: string, maxAliasCount: number): unknown {
  const document: unknown = parse(text, { maxAliasCount, uniqueKeys: true });
  // Without aliases a document holds fewer values than its text has characters.
  const limit = text.length + MAX_ALIAS_EXPANSION;
  if (valuesUpTo(document, limit) > limit) {
    throw new Error(`its aliases expand it past ${limit} values (an alias bomb?)`);
  }
  return document;
}

/** How many values `root` holds, each use of a shared one counted again; counting stops past `limit`. */
function valuesUpTo(root: unknown, limit: number): number {
  let count = 0;
  const pending: unknown[] = [root];
  while (pending.length > 0 && count <= limit) {
    const value = pending.pop();
    count++;
    if (value !== null && typeof value === 'object')
      for (const item of Object.values(value)) pending.push(item);
  }
  return count;
}
