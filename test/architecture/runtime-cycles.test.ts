/**
 * No file of core imports itself back at run time: each runtime import (a value, not `import
 * type` or only `type` names) read with TypeScript's own parser, and the strongly connected
 * files of that graph found. A cycle makes the order modules load in matter, and hides which
 * part of the loop depends on which. With type imports counted too, no circle is wider than
 * three files: the loop reads as short stacks, not one knot.
 */
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from '../support/source-files.js';

const src = resolve(dirname(fileURLToPath(import.meta.url)), '../../packages/core/src');

/** The module a statement imports or re-exports at run time; undefined for a type-only one. */
function runtimeSpecifier(statement: ts.Statement): string | undefined {
  const onlyTypes = (elements: ts.NodeArray<ts.ImportSpecifier | ts.ExportSpecifier>) =>
    elements.length > 0 && elements.every(element => element.isTypeOnly);
  if (ts.isImportDeclaration(statement)) {
    const clause = statement.importClause;
    if (clause?.isTypeOnly === true) return undefined;
    const bindings = clause?.namedBindings;
    if (clause?.name === undefined && bindings !== undefined && ts.isNamedImports(bindings))
      if (onlyTypes(bindings.elements)) return undefined;
    return (statement.moduleSpecifier as ts.StringLiteral).text;
  }
  if (ts.isExportDeclaration(statement) && statement.moduleSpecifier !== undefined) {
    if (statement.isTypeOnly) return undefined;
    const clause = statement.exportClause;
    if (clause !== undefined && ts.isNamedExports(clause) && onlyTypes(clause.elements))
      return undefined;
    return (statement.moduleSpecifier as ts.StringLiteral).text;
  }
  return undefined;
}

/** The module a statement imports or re-exports, for values or types. */
function anySpecifier(statement: ts.Statement): string | undefined {
  if (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement))
    return (statement.moduleSpecifier as ts.StringLiteral | undefined)?.text;
  return undefined;
}

/** Each file and the files of core it imports at run time (with `types`, also for types only). */
function importGraph(types = false): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(src)) {
    const parsed = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
    graph.set(
      relative(src, file),
      parsed.statements.flatMap(statement => {
        const specifier = types ? anySpecifier(statement) : runtimeSpecifier(statement);
        if (specifier === undefined || !specifier.startsWith('.')) return [];
        return [relative(src, resolve(dirname(file), specifier.replace(/\.js$/, '.ts')))];
      }),
    );
  }
  return graph;
}

/** The groups of files that import each other in a circle (Tarjan's strongly connected components). */
function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    for (const to of graph.get(file) ?? []) {
      if (!graph.has(to)) continue;
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file)!, low.get(to)!));
      } else if (stack.includes(to)) low.set(file, Math.min(low.get(file)!, index.get(to)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const group = stack.splice(stack.indexOf(file));
    if (group.length > 1 || graph.get(file)?.includes(file)) found.push(group.sort());
  };
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) visit(file);
  return found;
}

describe('the files of core', () => {
  const graph = importGraph();

  it('are read: every entry and the run loop are in the graph', () => {
    expect(graph.get('index.ts')?.length).toBeGreaterThan(10);
    expect(graph.get('kernel/run/turn/run-agent.ts')).toContain('kernel/run/tools/run-tool-calls.ts');
  });

  it('import each other at run time without a circle', () => {
    expect(circles(graph).map(group => group.join(' ⇄ '))).toEqual([]);
  });

  it('import each other, types included, in circles of at most three files', () => {
    const wide = circles(importGraph(true)).filter(group => group.length > 3);
    expect(wide.map(group => group.join(' ⇄ '))).toEqual([]);
  });

  it('a circle is found when there is one', () => {
    const planted = new Map(graph);
    planted.set('kernel/run/handoffs/run-handoff.ts', [
      ...(graph.get('kernel/run/handoffs/run-handoff.ts') ?? []),
      'kernel/run/turn/run-agent.ts',
    ]);
    expect(circles(planted).flat()).toEqual(
      expect.arrayContaining(['kernel/run/turn/run-agent.ts', 'kernel/run/handoffs/run-handoff.ts']),
    );
  });
});
