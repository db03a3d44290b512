import { readdirSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';

import ts from 'typescript';
import { expect, it } from 'vitest';

/**
 * Each module of the product imports only modules below it: a circle means some shared piece sits in the
 * wrong file. So does each folder of lib/ and each package (docs/architecture.md draws their order).
 * Type-only imports count, as they tie the files' meanings together (ESLint's import/no-cycle skips
 * them). Static imports and re-exports, resolved as tsconfig.json resolves them, the workspace packages
 * through their links in node_modules.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const FOLDERS = ['app', 'lib', 'packages', 'schemas', 'studio'];

function sourcesIn(folder: string): string[] {
  return readdirSync(path.join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(ts|tsx|mts)$/.test(file) && !/\.test\.ts$/.test(file))
    .map((file) => path.join(ROOT, folder, file));
}

function importGraph(): Map<string, string[]> {
  const { config } = ts.readConfigFile(path.join(ROOT, 'tsconfig.json'), (file) => ts.sys.readFile(file));
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, ROOT);
  const graph = new Map<string, string[]>();
  for (const file of FOLDERS.flatMap(sourcesIn)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, false);
    const targets = importedFiles
      .map(({ fileName }) => ts.resolveModuleName(fileName, file, options, ts.sys).resolvedModule)
      .map((resolved) => resolved && realpathSync(resolved.resolvedFileName))
      .filter((resolved): resolved is string => !!resolved && !resolved.includes(`${path.sep}node_modules${path.sep}`));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Every circle, each as the files around it (depth-first, each one reported from where it was entered). */
function circles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (file: string) => {
    const at = path.indexOf(file);
    if (at >= 0) return void found.push([...path.slice(at), file]);
    if (done.has(file) || !graph.has(file)) return;
    path.push(file);
    for (const target of graph.get(file)!) visit(target);
    path.pop();
    done.add(file);
  };
  for (const file of graph.keys()) visit(file);
  return found;
}

/** A file's folder: lib/<folder> or packages/<name>; elsewhere its top folder. */
function folderOf(file: string): string {
  const [top, next] = path.relative(ROOT, file).split(path.sep);
  return top === 'lib' || top === 'packages' ? `${top}/${next}` : top!;
}

/** The graph of folders: one edge wherever a file of one imports a file of another. */
function folderGraph(graph: Map<string, string[]>): Map<string, string[]> {
  const folders = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    const from = folderOf(file);
    const edges = folders.get(from) ?? folders.set(from, new Set()).get(from)!;
    for (const target of targets) if (folderOf(target) !== from) edges.add(folderOf(target));
  }
  return new Map([...folders].map(([folder, edges]) => [folder, [...edges]]));
}

const named = (circle: string[]) => circle.map((file) => path.relative(ROOT, file) || file).join(' → ');

it('no module of the product imports itself through others, type imports included', () => {
  const graph = importGraph();
  expect(graph.size).toBeGreaterThan(100);
  expect(circles(graph).map(named)).toEqual([]);
});

it('no folder of lib/ and no package imports itself through others', () => {
  const folders = folderGraph(importGraph());
  expect([...folders.keys()].filter((folder) => folder.startsWith('lib/')).length).toBeGreaterThan(8);
  expect(circles(folders).map((circle) => circle.join(' → '))).toEqual([]);
});

it('sees a circle between folders where one is planted', () => {
  const planted = new Map([
    [path.join(ROOT, 'lib/a/one.ts'), [path.join(ROOT, 'lib/b/two.ts')]],
    [path.join(ROOT, 'lib/b/two.ts'), [path.join(ROOT, 'lib/b/three.ts')]],
    [path.join(ROOT, 'lib/b/three.ts'), [path.join(ROOT, 'lib/a/four.ts')]],
    [path.join(ROOT, 'lib/a/four.ts'), []],
  ]);
  expect(circles(planted)).toEqual([]);
  expect(circles(folderGraph(planted)).map((circle) => circle.join(' → '))).toEqual(['lib/a → lib/b → lib/a']);
});
