import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/*
 * The one-way flow of DESIGN.md ("Shape"), checked on the sources of src/, devices/, simulators/ and
 * firmware-bridge/:
 * - no file imports itself back through others;
 * - no folder does either: src/config reads the device manifests, so no file of devices/ may read a file
 *   of src/config, even one that reads nothing back (that is how the config ↔ manifests loop was);
 * - the table machine imports nothing from the devices, the simulators, the transports, the controller
 *   or MQTT, and the drivers nothing from the steps after them (`MAY_NOT_IMPORT`).
 * Type-only imports count: a loop of types is still two modules that each know the other. The graph is
 * read with the TypeScript compiler's own scanner (`ts.preProcessFile`); relative specifiers only
 * (packages cannot import us back).
 */

const ROOT = join(import.meta.dirname, '../..');
const CHECKED = ['src', 'devices', 'simulators', 'firmware-bridge'];

/**
 * File cycles that still exist and are someone's open work, each as its files sorted. An entry that is no
 * cycle any more fails the test too, until it is removed. (The rules/index ↔ catalogue cycle was here
 * until the catalogue moved out of src/.)
 */
const ALLOWED_FILE_CYCLES: readonly (readonly string[])[] = [];

/** Folder cycles that still exist, each as its folders sorted; kept to the same rule. */
const ALLOWED_FOLDER_CYCLES: readonly (readonly string[])[] = [];

/** What each step of the flow may not import: what comes after it, and what it must know nothing of. */
const MAY_NOT_IMPORT: Record<string, readonly string[]> = {
  // The table knows nothing about bytes or device names.
  'src/table/': ['devices/', 'simulators/', 'src/controller/', 'src/io/', 'src/mqtt/'],
  // Drivers know nothing of the steps after them, nor of the config, which reads their manifests.
  'devices/': [
    'src/normaliser/',
    'src/journal/',
    'src/table/',
    'src/rules/',
    'src/controller/',
    'src/mqtt/',
    'src/outputs/',
    'src/display/',
    'src/config/',
  ],
};

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)))
    .filter((file) => !file.startsWith('src/display/web/'));
}

/** The repository file a relative specifier names (`./x.js` is `./x.ts`), or null if it names none. */
function resolveSpecifier(from: string, specifier: string): string | null {
  const base = resolve(ROOT, dirname(from), specifier);
  const stem = base.replace(/\.(m?js|tsx?)$/, '');
  for (const candidate of [`${stem}.ts`, `${stem}.tsx`, join(base, 'index.ts'), base]) {
    if (existsSync(candidate) && /\.tsx?$/.test(candidate)) return relative(ROOT, candidate);
  }
  return null;
}

/** Each file's relative imports (static, type-only, re-exports and dynamic `import()`), as repository paths. */
function importGraph(files: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true);
    const targets = importedFiles
      .map((ref) => ref.fileName)
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => resolveSpecifier(file, specifier))
      .filter((target): target is string => target !== null);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The strongly connected components of more than one file, or of one file importing itself (Tarjan). */
function cyclicComponents(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let next = 0;
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next++;
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!graph.has(to)) continue;
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node) as number, low.get(to) as number));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node) as number, index.get(to) as number));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || graph.get(node)?.includes(node)) components.push(component.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return components.sort((x, y) => x.join(' ').localeCompare(y.join(' ')));
}

/** The folder graph: an edge from each file's folder to each folder it imports from (its own aside). */
function folderGraph(files: ReadonlyMap<string, readonly string[]>): Map<string, string[]> {
  const folders = new Map<string, Set<string>>();
  for (const [file, targets] of files) {
    const from = dirname(file);
    const edges = folders.get(from) ?? new Set<string>();
    folders.set(from, edges);
    for (const target of targets) if (dirname(target) !== from) edges.add(dirname(target));
  }
  return new Map([...folders].map(([folder, edges]) => [folder, [...edges]]));
}

/** A file of `from` importing a file of `to`: what makes an edge of the folder graph. */
function fileEdge(files: ReadonlyMap<string, readonly string[]>, from: string, to: string): string {
  for (const [file, targets] of files) {
    const target = dirname(file) === from && targets.find((t) => dirname(t) === to);
    if (target) return `${file} -> ${target}`;
  }
  return `${from} -> ${to}`;
}

const files = importGraph(CHECKED.flatMap(sourceFiles));
const folders = folderGraph(files);
const key = (members: readonly string[]) => [...members].sort().join(' ');

/** Each cycle of `graph` not allowed, described: its members, and each import between them. */
function cyclesReport(
  graph: ReadonlyMap<string, readonly string[]>,
  allowed: readonly (readonly string[])[],
  describeStep: (from: string, to: string) => string,
): string[] {
  const allowedKeys = new Set(allowed.map(key));
  return cyclicComponents(graph)
    .filter((component) => !allowedKeys.has(key(component)))
    .map((component) => {
      const steps = component.flatMap((from) =>
        (graph.get(from) ?? []).filter((to) => component.includes(to)).map((to) => describeStep(from, to)),
      );
      return [`cycle of ${component.join(', ')}:`, ...steps.map((step) => `    ${step}`)].join('\n');
    });
}

/** Allowed cycles that are no cycle any more. */
function staleAllowances(
  graph: ReadonlyMap<string, readonly string[]>,
  allowed: readonly (readonly string[])[],
): string[] {
  const present = new Set(cyclicComponents(graph).map(key));
  return allowed.map(key).filter((cycle) => !present.has(cycle));
}

describe('imports', () => {
  it('are read from the sources (a check of the scanner)', () => {
    expect(files.get('src/table/machine.ts')).toContain('src/table/reduce.ts');
    expect(files.get('src/controller/devices.ts')).toContain('src/normaliser/rfid-reader.ts');
    expect(files.size).toBeGreaterThan(100);
  });

  it('cycles are found and named by their members (a check of the finder, on a made-up graph)', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts', 'd.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['d.ts']],
      ['e.ts', ['a.ts']],
    ]);
    expect(cyclicComponents(graph)).toEqual([['a.ts', 'b.ts', 'c.ts'], ['d.ts']]);
    expect(cyclesReport(graph, [['d.ts']], (from, to) => `${from} -> ${to}`)).toEqual([
      'cycle of a.ts, b.ts, c.ts:\n    a.ts -> b.ts\n    b.ts -> c.ts\n    c.ts -> a.ts',
    ]);
  });

  it('form no cycle of files', () => {
    const cycles = cyclesReport(files, ALLOWED_FILE_CYCLES, (from, to) => `${from} -> ${to}`);
    expect(cycles, 'import cycles of files').toEqual([]);
  });

  it('form no cycle of folders', () => {
    const cycles = cyclesReport(folders, ALLOWED_FOLDER_CYCLES, (from, to) => fileEdge(files, from, to));
    expect(cycles, 'import cycles of folders').toEqual([]);
  });

  it('allow only cycles that still exist', () => {
    expect(staleAllowances(files, ALLOWED_FILE_CYCLES)).toEqual([]);
    expect(staleAllowances(folders, ALLOWED_FOLDER_CYCLES)).toEqual([]);
  });

  it.each(Object.entries(MAY_NOT_IMPORT))('keep %s to its step of the flow', (from, forbidden) => {
    const reaches = [...files]
      .filter(([file]) => file.startsWith(from))
      .flatMap(([file, targets]) =>
        targets
          .filter((target) => forbidden.some((folder) => target.startsWith(folder)))
          .map((target) => `${file} -> ${target}`),
      );
    expect(reaches).toEqual([]);
  });
});
