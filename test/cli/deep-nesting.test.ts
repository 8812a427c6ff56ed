// A trace whose values nest deeper than the readers handle is refused everywhere with one clear
// message naming file and line (never a stack overflow); one just inside the limit is read,
// compared, rerun and rendered.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '@agent-trace/core';
import { jsonlSink } from '@agent-trace/trace';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { deepArgsAgent, deepModel } from '../fixtures/agents/deep-args.js';

const module = 'test/fixtures/agents/deep-args.ts';
const folder = mkdtempSync(join(tmpdir(), 'agent-trace-deep-'));

async function recorded(depth: number): Promise<string> {
  const file = join(folder, `deep-${depth}.jsonl`);
  const sink = jsonlSink(file);
  await run(deepArgsAgent(deepModel(depth)), 'Echo it', { trace: sink });
  await sink.close();
  return file;
}

describe('values nested too deep', () => {
  let deep = '';
  beforeAll(async () => {
    deep = await recorded(5000);
  });

  const commands: [string, (file: string) => string[]][] = [
    ['validate', file => ['validate', file]],
    ['replay', file => ['replay', file]],
    ['diff', file => ['diff', file, file]],
    ['rerun', file => ['rerun', file, '--agent', module]],
    ['view', file => ['view', file, '--out', join(folder, 'deep.html'), '--no-open']],
    ['stats', file => ['stats', file]],
  ];
  for (const [name, args] of commands)
    it(`${name} refuses the trace with one message naming file and line`, async () => {
      const result = await cli(args(deep));
      const printed = `${result.stdout}\n${result.stderr}`;
      expect(printed).toMatch(
        /deep-5000\.jsonl:\d+: arrays and objects nested more than 500 levels deep/,
      );
      expect(printed).not.toContain('Maximum call stack');
      expect(printed).not.toMatch(/larger than one page/);
      expect(result.code).toBe(name === 'validate' ? 1 : 2);
    });

  it('regress counts the run as failed and exits 2', async () => {
    const library = mkdtempSync(join(tmpdir(), 'agent-trace-deep-library-'));
    const sink = jsonlSink(join(library, 'deep.jsonl'));
    await run(deepArgsAgent(deepModel(5000)), 'Echo it', { trace: sink });
    await sink.close();
    const result = await cli(['regress', library, '--agent', module, '--no-store']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/nested more than 500 levels deep/);
    expect(result.stderr).not.toContain('Maximum call stack');
  });
});

describe('values nested too deep, in a library', () => {
  it('are left out of the index, which names the file, where and why', async () => {
    const library = mkdtempSync(join(tmpdir(), 'agent-trace-deep-index-'));
    const sink = jsonlSink(join(library, 'deep.jsonl'));
    await run(deepArgsAgent(deepModel(5000)), 'Echo it', { trace: sink });
    await sink.close();
    const index = await cli(['index', library]);
    expect(index.code).toBe(1);
    expect(index.stderr).toMatch(
      /deep\.jsonl: \d+ lines? (is|are) not (a )?trace events? and w(as|ere) skipped \(the first at byte \d+: arrays and objects nested more than 500 levels deep\)/,
    );
  });
});

describe('values nested just inside the limit', () => {
  let file = '';
  beforeAll(async () => {
    file = await recorded(480);
  });

  it('are validated, replayed, compared, rerun and rendered', async () => {
    expect((await cli(['validate', file])).code).toBe(0);
    expect((await cli(['replay', file])).code).toBe(0);
    expect((await cli(['diff', file, file])).code).toBe(0);
    const rerun = await cli(['rerun', file, '--agent', module]);
    expect(rerun.stderr).toBe('');
    expect(rerun.code).toBe(0);
    const view = await cli(['view', file, '--out', join(folder, 'ok.html'), '--no-open']);
    expect(view.code).toBe(0);
  });
});
