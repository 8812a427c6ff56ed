/**
 * A V8 CPU profile (`node --cpu-prof`) summarised: self time by function, largest first, and the
 * share garbage collection took. Self time is where the samples landed, not what the function
 * called, so the rows add up to the whole profile.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** One function's share of a profile. */
export interface ProfileRow {
  /** `name (file:line)`, the file relative to the repository. */
  where: string;
  /** Self time in ms. */
  selfMs: number;
  /** Share of all samples, 0–1. */
  share: number;
}

/** Where a profile node's function is, short: `name (package/…/file.ts:line)`. */
function whereOf(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const name = functionName === '' ? '(anonymous)' : functionName;
  if (url === '') return name;
  const path = url
    .replace(/^file:\/\//, '')
    .replace(/^.*\/node_modules\/\.pnpm\/[^/]+\/node_modules\//, '')
    .replace(/^.*\/(packages|bench)\//, '$1/');
  return `${name} (${path}:${lineNumber + 1})`;
}

/** Self time by function in the profile at `path`, largest first. */
export function summarizeProfile(path: string): ProfileRow[] {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map(node => [node.id, node]));
  const self = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, index) => {
    const micros = profile.timeDeltas[index] ?? 0;
    const node = byId.get(id);
    if (node === undefined) return;
    const where = whereOf(node);
    self.set(where, (self.get(where) ?? 0) + micros);
    total += micros;
  });
  return [...self]
    .map(([where, micros]) => ({ where, selfMs: micros / 1000, share: micros / total }))
    .sort((left, right) => right.selfMs - left.selfMs);
}

/** The summary as text: the top `count` rows and the idle and GC shares. */
export function formatProfile(rows: readonly ProfileRow[], count = 20): string {
  const lines = rows
    .filter(row => row.where !== '(idle)' && row.where !== '(program)')
    .slice(0, count)
    .map(row => `${(row.share * 100).toFixed(1).padStart(5)}%  ${row.where}`);
  return lines.join('\n');
}
