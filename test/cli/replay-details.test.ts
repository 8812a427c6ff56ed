// Details of what the CLI prints: replay of one run (--run), an error said once, the cost of a
// failed call of a model with no price, and a module that cannot load named without the machine's
// paths.
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agent, run } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import { jsonlSink } from '@agent-trace/trace';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';

const folder = mkdtempSync(join(tmpdir(), 'agent-trace-replay-details-'));
let two = '';
let failed = '';
beforeAll(async () => {
  two = join(folder, 'two.jsonl');
  const sink = jsonlSink(two);
  for (const answer of ['first answer', 'second answer'])
    await run(agent({ name: 'desk', model: fakeLLM([{ text: answer }]) }), 'hi', { trace: sink });
  await sink.close();
  failed = join(folder, 'failed.jsonl');
  const failing = jsonlSink(failed);
  const broken = fakeLLM([{ error: { status: 400, message: 'bad request' } }]);
  await run(agent({ name: 'desk', model: broken }), 'hi', { trace: failing });
  await failing.close();
});

describe('replay --run', () => {
  it('renders only the run named by its place or its id', async () => {
    const second = await cli(['replay', two, '--run', '2']);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('second answer');
    expect(second.stdout).not.toContain('first answer');
    const id = /^run (\S+)/m.exec(second.stdout)?.[1] ?? '';
    const byId = await cli(['replay', two, '--run', id]);
    expect(byId.stdout).toBe(second.stdout);
  });

  it('names the runs the trace has when none answers', async () => {
    const none = await cli(['replay', two, '--run', '3']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(
      /^--run 3: the trace has no such run\. Its 2 runs: 1\. \S+, 2\. \S+\.$/,
    );
  });
});

describe('a failed run in replay', () => {
  it('has a cost unknown, not $0, when its model has no price', async () => {
    const replayed = await cli(['replay', failed]);
    expect(replayed.stdout).toMatch(/stop: error .* cost unknown: no price for fake\/fake-model/);
    expect(replayed.stdout).not.toMatch(/ · \$0\b/);
  });

  it('says an error whose type is `error` once', async () => {
    const imported = join(folder, 'imported-error.jsonl');
    const lines = readFileSync(failed, 'utf8').replace(
      /"error":\{"type":"[^"]*","message":"[^"]*"/g,
      '"error":{"type":"error","message":"error: the upstream broke"',
    );
    writeFileSync(imported, lines);
    const replayed = await cli(['replay', imported]);
    expect(replayed.stdout).toMatch(/^error: the upstream broke$/m);
    expect(replayed.stdout).not.toMatch(/error: error:/);
  });
});

it('names a module that cannot load by the path given, not the machine’s', async () => {
  const missing = await cli(['rerun', two, '--agent', './no/such/agent.ts']);
  expect(missing.code).toBe(2);
  expect(missing.stderr).toBe(
    "Cannot load agent module './no/such/agent.ts': Cannot find module './no/such/agent.ts'. Check the path and that the module runs on its own.",
  );
  expect(missing.stderr).not.toContain(process.cwd());
});
