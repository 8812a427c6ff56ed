/** `agent-trace stats` of several traces, by name or by a glob: each under its name, then totals. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '@agent-trace/core';
import { jsonlSink } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { build } from '../conformance/shapes/native-tools.js';
import { cli } from '../support/cli.js';

async function traces(): Promise<string> {
  const folder = mkdtempSync(join(tmpdir(), 'agent-trace-stats-'));
  for (const [name, runs] of [
    ['a.jsonl', 2],
    ['b.jsonl', 1],
  ] as const) {
    const sink = jsonlSink(join(folder, name));
    for (let index = 0; index < runs; index++) await run(build(), 'Weather?', { trace: sink });
    await sink.close();
  }
  return folder;
}

describe('agent-trace stats of several traces', () => {
  it('reads each under its name and totals their runs; a glob names them too', async () => {
    const folder = await traces();
    const named = await cli(['stats', join(folder, 'a.jsonl'), join(folder, 'b.jsonl')], {
      NO_COLOR: '1',
    });
    expect(named.code).toBe(0);
    expect(named.stdout).toContain(`== ${join(folder, 'a.jsonl')}`);
    expect(named.stdout).toContain(`== ${join(folder, 'b.jsonl')}`);
    expect(named.stdout).toContain('total: 3 runs in 2 files');
    expect(named.stdout).toMatch(/total: 3 runs in 2 files\nagent +calls.*\ndesk +3 /);

    const globbed = await cli(['stats', join(folder, '*.jsonl'), '--json']);
    const report = JSON.parse(globbed.stdout) as {
      files: { file: string; runs: unknown[] }[];
      total: { run: string; tools: Record<string, { calls: number }> };
    };
    expect(report.files.map(file => [file.file, file.runs.length])).toEqual([
      [join(folder, 'a.jsonl'), 2],
      [join(folder, 'b.jsonl'), 1],
    ]);
    expect(report.total).toMatchObject({ run: '(3 runs)', tools: { weather: { calls: 3 } } });

    const none = await cli(['stats', join(folder, '*.json')]);
    expect(none.code).toBe(2);
    expect(none.stderr).toBe(`No trace file matches '${join(folder, '*.json')}'.`);
  });
});
