import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resume, run } from '@agent-trace/core';
import { openaiHandlers } from '@agent-trace/testing/msw';
import { jsonlSink, readTrace } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { build as approvalDesk } from '../conformance/shapes/approval.js';
import { build as nativeDesk } from '../conformance/shapes/native-tools.js';
import { cli } from '../support/cli.js';
import { useMswServer } from '../support/provider-wire.js';

const server = useMswServer();
const folder = () => mkdtempSync(join(tmpdir(), 'agent-trace-rerun-runs-'));

async function threeRuns(): Promise<string> {
  const file = join(folder(), 'desk.jsonl');
  for (const question of ['Paris?', 'Lyon?', 'Nice?']) {
    const sink = jsonlSink(file);
    await run(nativeDesk(), question, { trace: sink });
    await sink.close();
  }
  return file;
}

describe('agent-trace rerun of a file with several runs', () => {
  it('reruns every run, a line each and a total; --run picks by id or number; --json names them', async () => {
    const file = await threeRuns();
    const module = 'test/conformance/shapes/native-tools.ts';
    const all = await cli(['rerun', file, '--agent', module], { NO_COLOR: '1' });
    expect(all.code).toBe(0);
    expect(all.stdout).toContain('(3 runs)');
    expect(all.stdout.match(/✓ same behaviour/g)).toHaveLength(3);
    expect(all.stdout).toContain('✓ all 3 runs: same behaviour');

    const json = await cli(['rerun', file, '--agent', module, '--json']);
    const report = JSON.parse(json.stdout) as {
      same: boolean;
      runs: { run: string; same: boolean }[];
    };
    expect(report.same).toBe(true);
    expect(report.runs).toHaveLength(3);
    const [, second, third] = report.runs.map(each => each.run);

    const picked = await cli([
      'rerun',
      file,
      '--agent',
      module,
      '--run',
      '2',
      '--run',
      third!,
      '--json',
    ]);
    expect((JSON.parse(picked.stdout) as typeof report).runs.map(each => each.run)).toEqual([
      second,
      third,
    ]);

    const wrong = await cli(['rerun', file, '--agent', module, '--run', '9']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--run 9: the trace has no such run. Its 3 runs are: 1. ');
  });

  it('says which run diverged and counts them', async () => {
    const file = await threeRuns();
    const changed = join(folder(), 'changed.ts');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(
      changed,
      `import { build } from '${join(process.cwd(), 'test/conformance/shapes/native-tools.ts')}';\nexport default build('instructions');\n`,
    );
    const result = await cli(['rerun', file, '--agent', changed], { NO_COLOR: '1' });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('✗ 3 of 3 runs diverged, 0 same');
    expect(result.stdout).toContain('changed:  the instructions');
  });
});

/** `agent-trace fork` of the approval desk after its second answer, a model at `baseURL` answering. */
const forkArgs = (file: string, baseURL: string) => [
  'fork',
  file,
  '--agent',
  'test/conformance/shapes/approval.ts',
  '--after-step',
  '2',
  '--model',
  'openai-compatible:what-if',
  '--base-url',
  baseURL,
];

describe('agent-trace fork with decisions', () => {
  async function pausedAndApproved(): Promise<string> {
    const file = join(folder(), 'desk.jsonl');
    let sink = jsonlSink(file);
    const paused = await run(approvalDesk(), 'Refund order 42 in full', { trace: sink });
    await sink.close();
    sink = jsonlSink(file);
    await resume(approvalDesk(undefined, 'resume'), paused.state!, {
      decisions: [{ callId: paused.interruptions[0]!.callId, decision: 'approve', by: 'ana' }],
      trace: sink,
    });
    await sink.close();
    return file;
  }

  it('decides the pause anew with --reject, and the named model answers after it', async () => {
    const file = await pausedAndApproved();
    const baseURL = 'http://fork.llm.test/v1';
    server.use(...openaiHandlers([{ text: 'Refused; I will not refund.' }], { baseURL }));
    const out = join(folder(), 'fork.jsonl');
    const args = forkArgs(file, baseURL);
    const model = ['--out', out];
    const forked = await cli(
      [...args, ...model, '--reject', 'refund', '--reason', 'over the limit', '--by', 'lee'],
      { NO_COLOR: '1' },
    );
    expect(forked.code).toBe(0);
    expect(forked.stdout).toContain('Refused; I will not refund.');
    const decided = [];
    for await (const event of readTrace(out))
      if (event.event === 'approval_resolved') decided.push(event);
    expect(decided).toMatchObject([{ decision: 'rejected', by: 'lee', reason: 'over the limit' }]);

    const bad = await cli([...args, ...model, '--decisions', join(folder(), 'none.json')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Cannot read the decisions in');
  });

  it('goes on as recorded when no decision names the pause', async () => {
    const file = await pausedAndApproved();
    const baseURL = 'http://fork2.llm.test/v1';
    server.use(...openaiHandlers([{ text: 'Refunded.' }], { baseURL }));
    const forked = await cli(forkArgs(file, baseURL), { NO_COLOR: '1' });
    expect(forked.code).toBe(0);
    expect(forked.stdout).toContain('Refunded.');
    expect(forked.stdout).toContain('approved');
  });
});
