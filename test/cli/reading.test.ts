import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agent, run, tool, type TraceEvent } from '@agent-trace/core';
import { fakeLLM, type FakeLLMStep } from '@agent-trace/testing';
import { startOtlpReceiver } from '@agent-trace/testing/otlp';
import { jsonlSink, readTrace } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { cli } from '../support/cli.js';

const directory = mkdtempSync(join(tmpdir(), 'agent-trace-reading-'));
const echo = tool({
  name: 'echo',
  description: 'Echo',
  input: z.object({ n: z.number() }),
  execute: ({ n }) => n,
});
const call = (n: number) => ({ toolCalls: [{ name: 'echo', args: { n } }] });

/** Writes one run per script into one file, one after the other. */
async function traceOf(name: string, scripts: FakeLLMStep[][], agentName = 'a'): Promise<string> {
  const path = join(directory, `${name}-${Math.random().toString(16).slice(2)}.jsonl`);
  const sink = jsonlSink(path);
  for (const script of scripts)
    await run(agent({ name: agentName, model: fakeLLM(script), tools: [echo] }), 'go', {
      trace: sink,
    });
  await sink.close();
  return path;
}

const lines = (path: string) => readFileSync(path, 'utf8').trimEnd().split('\n');

describe('a trace written by a newer minor version', () => {
  /** The demo of a run with a future event kind (a span of its own) and a future field inside. */
  async function futureTrace(): Promise<string> {
    const path = await traceOf('future-source', [[call(1), { text: 'done' }]]);
    const events = lines(path).map(line => JSON.parse(line) as Record<string, unknown>);
    const toolStart = events.findIndex(event => event.event === 'tool_start');
    const at = events[toolStart]!;
    const approval = (event: string, seq: number) => ({
      ...at,
      seq,
      event,
      span_id: 'abcdefabcdefabcd',
      parent_span_id: at.span_id,
      approver: 'ops',
    });
    const shifted = [
      ...events.slice(0, toolStart + 1),
      approval('approval_start', toolStart + 1),
      approval('approval_end', toolStart + 2),
      ...events.slice(toolStart + 1),
    ].map((event, seq): Record<string, unknown> => ({ ...event, seq }));
    const end = shifted.at(-1)!;
    Object.assign(end, {
      last_seq: end.seq,
      counts: { ...(end.counts as object), events: shifted.length },
    });
    Object.assign(shifted[1]!, { sandbox: { image: 'node:24' } });
    const future = join(directory, 'future.jsonl');
    writeFileSync(future, `${shifted.map(event => JSON.stringify(event)).join('\n')}\n`);
    return future;
  }

  it('is read by readTrace, which skips the new kind and reports each novelty once', async () => {
    const path = await futureTrace();
    const reported: string[] = [];
    const events: TraceEvent[] = [];
    for await (const event of readTrace(path, {
      onNewerContent: content =>
        reported.push(`${content.line} ${content.event} ${content.field ?? ''}`),
    }))
      events.push(event);
    expect(events.map(event => event.event)).not.toContain('approval_start');
    expect(reported).toEqual(['2 agent_start sandbox', '6 approval_start ', '7 approval_end ']);
  });

  it('validates with warnings and exit 0', async () => {
    const path = await futureTrace();
    const { code, stdout } = await cli(['validate', path]);
    expect(code).toBe(0);
    expect(stdout).toContain('valid');
    expect(stdout).toMatch(
      /warning: .*future\.jsonl:6: event kind 'approval_start' was written by a newer agent-trace/,
    );
    expect(stdout).toMatch(/field 'sandbox' of 'agent_start' events/);
  });

  it('replays, shows stats, diffs and exports with one warning per novelty', async () => {
    const path = await futureTrace();
    const plain = await traceOf('future-plain', [[call(1), { text: 'done' }]]);
    const replay = await cli(['replay', path]);
    expect(replay.code).toBe(0);
    expect(replay.stdout).toContain('tool echo');
    expect(replay.stderr.split('\n')).toHaveLength(3);
    expect(replay.stderr).toContain("event kind 'approval_start'");
    const stats = await cli(['stats', path]);
    expect(stats.code).toBe(0);
    expect(stats.stderr).toContain("event kind 'approval_end'");
    const diff = await cli(['diff', plain, path]);
    expect(diff.code).toBe(0);
    expect(diff.stderr).toContain("field 'sandbox'");
    const collector = await startOtlpReceiver();
    try {
      const exported = await cli(['export', path, '--otlp', collector.url]);
      expect(exported.code).toBe(0);
      expect(exported.stderr).toContain("event kind 'approval_start'");
    } finally {
      await collector.close();
    }
  });

  it('keeps a stop reason a newer version added, and says so once per event kind', async () => {
    const path = await traceOf('future-stop', [[call(1), { text: 'done' }]]);
    const future = join(directory, 'future-stop.jsonl');
    writeFileSync(
      future,
      `${lines(path)
        .map(line => line.replace('"stop_reason":"completed"', '"stop_reason":"awaiting_review"'))
        .join('\n')}\n`,
    );
    const reported: string[] = [];
    const ends: string[] = [];
    for await (const event of readTrace(future, {
      onNewerContent: content => reported.push(`${content.line} ${content.event} ${content.value}`),
    }))
      if (event.event === 'agent_end' || event.event === 'run_end') ends.push(event.stop_reason);
    expect(ends).toEqual(['awaiting_review', 'awaiting_review']);
    expect(reported).toEqual(['9 agent_end awaiting_review', '10 run_end awaiting_review']);
    const validated = await cli(['validate', future]);
    expect(validated.code).toBe(0);
    expect(validated.stdout).toMatch(
      /future-stop\.jsonl:9: stop_reason 'awaiting_review' of 'agent_end' events was written by a newer agent-trace/,
    );
    const replay = await cli(['replay', future]);
    expect(replay.code).toBe(0);
    expect(replay.stdout).toContain('stop: awaiting_review');
  });

  it('still refuses a newer major version, clearly', async () => {
    const path = join(directory, 'major.jsonl');
    writeFileSync(
      path,
      `${lines(await traceOf('major-source', [[{ text: 'hi' }]]))[0]!.replace('"v":1', '"v":2')}\n`,
    );
    const { code, stderr } = await cli(['replay', path]);
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /major\.jsonl:1: trace schema version 2 is not supported.*newer major version/,
    );
  });

  it('accepts a byte order mark at the start', async () => {
    const path = await traceOf('bom-source', [[{ text: 'hi' }]]);
    const withBom = join(directory, 'bom.jsonl');
    writeFileSync(withBom, `\uFEFF${readFileSync(path, 'utf8')}`);
    expect((await cli(['validate', withBom])).code).toBe(0);
    expect((await cli(['replay', withBom])).stdout).toContain('stop: completed');
  });
});

describe('files with several runs', () => {
  it('diff compares run by run, and names the run that differs', async () => {
    const first = await traceOf('runs-a', [
      [call(1), { text: 'one' }],
      [call(2), { text: 'two' }],
    ]);
    const same = await traceOf('runs-b', [
      [call(1), { text: 'one' }],
      [call(2), { text: 'two' }],
    ]);
    const other = await traceOf('runs-c', [
      [call(1), { text: 'one' }],
      [call(3), { text: 'two' }],
    ]);
    expect(await cli(['diff', first, same])).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('same behaviour (2 runs)') as string,
    });
    const { code, stdout } = await cli(['diff', first, other]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/1 of 2 runs differ/);
    expect(stdout).toMatch(/run 2 \(.+ → .+\): \d+ difference/);
    expect(stdout).toContain(`tool 'echo' is called with {"n":3}`);
    expect(stdout).not.toMatch(/run 1 \(/);
  });

  it('diff reports a run only one file has', async () => {
    const one = await traceOf('count-a', [[{ text: 'one' }]]);
    const two = await traceOf('count-b', [[{ text: 'one' }], [{ text: 'two' }]]);
    const { code, stdout } = await cli(['diff', one, two, '--json']);
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as {
      runs: { index: number; first?: string; differences: unknown[] }[];
    };
    expect(report.runs).toHaveLength(2);
    expect(report.runs[0]!.differences).toEqual([]);
    expect(report.runs[1]!.first).toBeUndefined();
    expect(report.runs[1]!.differences.length).toBeGreaterThan(0);
  });
});

describe('quiet wrong answers', () => {
  it('stats and diff warn about a torn last line, as replay does', async () => {
    const path = await traceOf('torn', [[{ text: 'hi' }]]);
    appendFileSync(path, '{"v":1,"seq":99');
    for (const args of [
      ['stats', path],
      ['diff', path, path],
      ['replay', path],
    ]) {
      const { code, stderr } = await cli(args);
      expect(code).toBe(0);
      expect(stderr).toMatch(/warning: .*torn-\w+\.jsonl:\d+: the last line has no newline/);
    }
  });

  it('stats keeps an agent named __proto__', async () => {
    const path = await traceOf('proto', [[call(1), { text: 'done' }]], '__proto__');
    const { stdout } = await cli(['stats', path, '--json']);
    const report = JSON.parse(stdout) as { runs: { agents: Record<string, { calls: number }> }[] };
    expect(Object.hasOwn(report.runs[0]!.agents, '__proto__')).toBe(true);
    expect(report.runs[0]!.agents['__proto__']).toMatchObject({ calls: 1 });
    expect((await cli(['stats', path])).stdout).toMatch(/^__proto__ +1 /m);
  });
});
