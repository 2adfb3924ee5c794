import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { PROFILE_IDS } from '../../../src/rules/index.js';

/**
 * Profiles are data (DESIGN.md "Shape"): the table machine asks the active profile and never names one,
 * so a fourth profile needs no change to it. Checked on the strings of every source file under src/table/
 * (import specifiers and template parts included); comments may cite a rulebook.
 */
const ROOT = join(import.meta.dirname, '../../..');
const TABLE = join(ROOT, 'src/table');
const FILES = readdirSync(TABLE, { recursive: true, encoding: 'utf8' })
  .filter((name) => /\.tsx?$/.test(name))
  .map((name) => join(TABLE, name));

function strings(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) found.push(node.text);
    node.forEachChild(visit);
  };
  visit(source);
  return found;
}

describe('the table machine names no rule profile', () => {
  it('reads its sources', () => {
    expect(FILES.length).toBeGreaterThan(5);
    expect(PROFILE_IDS).toContain('tda-2024');
  });

  it.each(FILES.map((file) => [relative(ROOT, file), file]))('%s', (_name, file) => {
    const named = strings(file).filter((text) => PROFILE_IDS.some((id) => text.includes(id)));
    expect(named).toEqual([]);
  });
});
