// `agent-trace rerun` of an Agents SDK recording, in a process of its own as a user runs it: it
// says the same and ends by itself, the SDK's own trace exporter closed by the bridge (it held
// the process with its timers).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jsonlSink } from '@agent-trace/trace';
import { expect, it } from 'vitest';
import { agentTraceProcess } from '../conformance/harness/cli-process.js';
import { recordDesk } from '../fixtures/agents/openai-agents-desk.js';

it('reruns an Agents SDK recording and ends without anything left open', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'agents-cli-')), 'desk.jsonl');
  const sink = jsonlSink(file);
  await recordDesk(sink);
  await sink.close();
  const rerun = await agentTraceProcess([
    'rerun',
    file,
    '--agent',
    'test/fixtures/agents/openai-agents-desk.ts',
  ]);
  expect(rerun.stdout).toContain('same behaviour');
  expect(rerun.code).toBe(0);
  expect(rerun.killed).toBe(false);
  expect(rerun.stderr).not.toContain('still holds open');
});
