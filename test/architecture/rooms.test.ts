/**
 * The shape of core, read from its imports: kernel → seam → features → adapters, with two runners
 * above them (run/stream/resume, and workflows). Lint holds each file's imports; this holds the
 * rooms as a whole: no cycle between rooms, type-only or not.
 */
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from '../support/source-files.js';

const src = resolve(dirname(fileURLToPath(import.meta.url)), '../../packages/core/src');

/**
 * A file's room: `kernel/run`, `features/cost`, `adapters/mcp`, `runner`, `workflow`, or `entry`
 * (src/*.ts).
 */
function roomOf(file: string): string {
  const parts = relative(src, file).split('/');
  if (parts.length === 1) return 'entry';
  return parts[0] === 'runner' || parts[0] === 'workflow' ? parts[0] : `${parts[0]}/${parts[1]}`;
}

/** Every room and the rooms it imports from (type-only imports included). */
function roomGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  const specifier = /(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g;
  for (const file of sourceFiles(src)) {
    const from = roomOf(file);
    const edges = graph.get(from) ?? new Set<string>();
    graph.set(from, edges);
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(specifier)) {
      const to = roomOf(resolve(dirname(file), spec!));
      if (to !== from) edges.add(to);
    }
  }
  return graph;
}

/** The cycles of the graph, each as the path that closes it. */
function cycles(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (room: string): void => {
    state.set(room, 'open');
    path.push(room);
    for (const next of graph.get(room) ?? []) {
      if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), next]);
      else if (state.get(next) === undefined) visit(next);
    }
    path.pop();
    state.set(room, 'done');
  };
  for (const room of [...graph.keys()].sort()) if (state.get(room) === undefined) visit(room);
  return found;
}

describe('the rooms of core', () => {
  const graph = roomGraph();

  it('are kernel, features and adapters, with the runners and the entries above them', () => {
    const tops = new Set([...graph.keys()].map(room => room.split('/')[0]));
    expect([...tops].sort()).toEqual([
      'adapters',
      'entry',
      'features',
      'kernel',
      'runner',
      'workflow',
    ]);
  });

  it('import each other without a cycle, type-only imports included', () => {
    expect(cycles(graph).map(cycle => cycle.join(' → '))).toEqual([]);
  });

  it('keep the kernel below the features and adapters, and the runners above all but the entries', () => {
    const runners = new Set(['runner', 'workflow']);
    const upward = [...graph].flatMap(([room, edges]) =>
      [...edges]
        .filter(to =>
          room.startsWith('kernel/')
            ? !to.startsWith('kernel/') && !to.startsWith('features/')
            : room.startsWith('adapters/')
              ? to.startsWith('features/') || runners.has(to) || to === 'kernel/run'
              : room.startsWith('features/')
                ? runners.has(to) || to === 'entry'
                : to === 'entry' || (room === 'runner' && to === 'workflow'),
        )
        .map(to => `${room} → ${to}`),
    );
    expect(upward).toEqual([]);
  });
});
