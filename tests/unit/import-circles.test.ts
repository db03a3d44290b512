import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import ts from 'typescript';
import { expect, it } from 'vitest';

/**
 * Each module of the product imports only modules below it (issue 51): a circle means some shared piece
 * sits in the wrong file. Type-only imports count, as they tie the files' meanings together (ESLint's
 * import/no-cycle skips them). Static imports and re-exports, resolved as tsconfig.json resolves them.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const FOLDERS = ['app', 'lib', 'schemas', 'studio'];

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
      .filter((resolved) => resolved && !resolved.isExternalLibraryImport)
      .map((resolved) => path.resolve(resolved!.resolvedFileName));
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

it('no module of the product imports itself through others, type imports included', () => {
  const graph = importGraph();
  expect(graph.size).toBeGreaterThan(100);
  expect(circles(graph).map((circle) => circle.map((file) => path.relative(ROOT, file)).join(' → '))).toEqual([]);
});
