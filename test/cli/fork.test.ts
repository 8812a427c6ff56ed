import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '@agent-trace/core';
import { openaiHandlers } from '@agent-trace/testing/msw';
import { jsonlSink, readTrace, validateTraceFile } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { useMswServer } from '../support/provider-wire.js';

const server = useMswServer();

async function recordSmallDesk(): Promise<string> {
  const { smallDesk } = await import('../fixtures/agents/small-desk.js');
  const path = join(mkdtempSync(join(tmpdir(), 'agent-trace-fork-')), 'desk.jsonl');
  const sink = jsonlSink(path);
  await run(smallDesk(), 'Weather in Paris, then a refund?', { trace: sink });
  await sink.close();
  return path;
}

describe('agent-trace fork', () => {
  it('reproduces the run up to the step, then the named model answers; the fork records where it came from', async () => {
    const path = await recordSmallDesk();
    const baseURL = 'http://fork.llm.test/v1';
    server.use(...openaiHandlers([{ text: 'It is sunny; no refund needed.' }], { baseURL }));
    const out = join(mkdtempSync(join(tmpdir(), 'agent-trace-fork-')), 'fork.jsonl');
    const { code, stdout } = await cli(
      [
        'fork',
        path,
        '--agent',
        'test/fixtures/agents/small-desk.ts',
        '--after-step',
        '1',
        '--model',
        'openai-compatible:what-if',
        '--base-url',
        baseURL,
        '--out',
        out,
      ],
      { NO_COLOR: '1' },
    );
    expect(code).toBe(0);
    expect(stdout).toContain('✓ steps 1–1 reproduced as recorded');
    expect(stdout).toMatch(/forked from run \S+ after step 1/);
    expect(stdout).toContain('"It is sunny; no refund needed."');
    expect((await validateTraceFile(out)).problems).toEqual([]);
    const models: string[] = [];
    for await (const event of readTrace(out))
      if (event.event === 'llm_start') models.push(event.model);
    expect(models).toEqual(['fake-model', 'what-if']);
  });

  it('refuses a step the recording does not have, and a step that is not a number', async () => {
    const path = await recordSmallDesk();
    const args = [
      'fork',
      path,
      '--agent',
      'test/fixtures/agents/small-desk.ts',
      '--model',
      'openai:gpt-4o',
    ];
    const tooFar = await cli([...args, '--after-step', '9']);
    expect(tooFar.code).toBe(2);
    expect(tooFar.stderr).toMatch(/afterStep must be a whole number from 0 to 3/);
    const notANumber = await cli([...args, '--after-step', 'two']);
    expect(notANumber.code).toBe(2);
    expect(notANumber.stderr).toContain(
      "--after-step takes a whole number of model answers, 0 or more (got 'two')",
    );
  });
});
