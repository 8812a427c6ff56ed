import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '@agent-trace/core';
import type { FakeLLMStep } from '@agent-trace/testing';
import { jsonlSink } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { reviewDesk } from '../../examples/document-review/agents.js';
import { draft } from '../../examples/document-review/draft.js';
import { cli } from '../support/cli.js';
import { deterministic } from '../support/deterministic.js';

const directory = mkdtempSync(join(tmpdir(), 'agent-trace-cli-'));

async function demoTrace(): Promise<string> {
  const path = join(directory, `demo-${Math.random().toString(16).slice(2)}.jsonl`);
  const sink = jsonlSink(path);
  await run(reviewDesk(), `Review this draft: ${draft}`, {
    trace: sink,
    session: 'demo',
    ...deterministic(),
  });
  await sink.close();
  return path;
}

describe('agent-trace replay', () => {
  it('renders the demo as a tree: agents, who handed off to whom at what depth, tools nested under them', async () => {
    const path = await demoTrace();
    const { code, stdout } = await cli(['replay', path]);
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    const toolLines = lines.filter(line => /─ tool /.test(line));
    expect(toolLines).toHaveLength(10);
    expect(lines[1]).toMatch(
      /^└─ agent coordinator {2}fake\/gpt-4o {2}4 steps {2}handed off to evaluator {2}\d+ ms$/,
    );
    expect(lines[2]).toBe(
      '   ├─ guardrail max_length (input) warn: the input is about 27 tokens long; the limit is 20',
    );
    expect(stdout).toMatch(
      /\n {3}├─ tool ask_style .*\n {3}│ {2}└─ handoff coordinator → style {2}depth 1 {2}return_to_caller/,
    );
    expect(stdout).toMatch(
      /\n {3}│ {5}└─ agent style {2}fake\/gpt-4o-mini {2}2 steps {2}completed/,
    );
    expect(stdout).toMatch(
      /\n {3}│ {8}├─ tool check_grammar \{"text":"Tracing makes agents {2}observable.*→ \{"issues":\["doubled word 'Every'","double space"\]\} {2}\d+ ms/,
    );
    expect(stdout).toMatch(
      /tool count_words \{"text":42\} {2}✗ invalid_arguments: Invalid arguments for tool 'count_words'/,
    );
    expect(stdout).toMatch(/\n {3}└─ handoff coordinator → evaluator {2}depth 1 {2}pass_control/);
    expect(stdout).toMatch(/\n {6}└─ agent evaluator {2}fake\/gpt-4o {2}2 steps {2}completed/);
    expect(stdout).toMatch(
      /stop: completed · 15 llm calls · 10 tool calls \(1 failed\) · 3240→394 tok/,
    );
    expect(stdout).not.toContain('\u001b[');
  });

  it('says why a run stopped, with the limit, and shows retries', async () => {
    const { agent, tool, steppingClock } = await import('@agent-trace/core');
    const { fakeLLM } = await import('@agent-trace/testing');
    const { z } = await import('zod');
    const ping = tool({
      name: 'ping',
      description: 'Ping',
      input: z.object({}),
      execute: () => 'pong',
    });
    const path = join(directory, 'stopped.jsonl');
    const sink = jsonlSink(path);
    const model = fakeLLM([
      { error: { status: 429, retryAfterMs: 250 } },
      { toolCalls: [{ name: 'ping' }] },
      { toolCalls: [{ name: 'ping' }] },
      { toolCalls: [{ name: 'ping' }] },
    ]);
    await run(agent({ name: 'pinger', model, tools: [ping], circuitBreaker: false }), 'go', {
      trace: sink,
      clock: steppingClock(),
    });
    await sink.close();
    const { stdout } = await cli(['replay', path]);
    expect(stdout).toContain('retry model fake-model attempt 2 after 250 ms (rate_limit)');
    expect(stdout).toContain('stop: duplicate_tool_call');
    expect(stdout).toContain('limit maxDuplicateToolCalls = 2');
    expect(stdout).toContain(
      "why: the LLM asked for tool 'ping' with the same arguments ({}) a 3rd time; 2 allowed",
    );
  });

  it('prints the span trees as JSON with --json', async () => {
    const { code, stdout } = await cli(['replay', await demoTrace(), '--json']);
    expect(code).toBe(0);
    const parsed = JSON.parse(stdout) as {
      runs: { root: { start: { event: string }; children: unknown[] } }[];
    };
    expect(parsed.runs[0]!.root.start.event).toBe('run_start');
    expect(parsed.runs[0]!.root.children).toHaveLength(1);
    expect(JSON.stringify(parsed)).toContain('"to":"evaluator"');
  });

  it('colours output only when asked, and never under NO_COLOR', async () => {
    const path = await demoTrace();
    expect((await cli(['replay', path], { FORCE_COLOR: '1' })).stdout).toContain('\u001b[');
    expect((await cli(['replay', path], { FORCE_COLOR: '1', NO_COLOR: '1' })).stdout).not.toContain(
      '\u001b[',
    );
  });

  it('exits 2 with the file and line when a line is broken', async () => {
    const path = join(directory, 'broken.jsonl');
    writeFileSync(path, '{"v":1}\n');
    const { code, stderr } = await cli(['replay', path]);
    expect(code).toBe(2);
    expect(stderr).toContain(`${path}:1: not a valid trace event`);
    expect(stderr).toContain(
      `Run 'agent-trace validate ${path}' to list every problem in the file.`,
    );
  });

  it('exits 2 with advice when the file does not exist', async () => {
    const { code, stderr } = await cli(['replay', join(directory, 'missing.jsonl')]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/Cannot read trace file .*missing\.jsonl': ENOENT.*Check the path/);
  });

  it('marks spans that never ended in a cut trace', async () => {
    const path = await demoTrace();
    const { readFileSync } = await import('node:fs');
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
    const cut = join(directory, 'cut.jsonl');
    writeFileSync(cut, `${lines.slice(0, 5).join('\n')}\n`);
    const { code, stdout } = await cli(['replay', cut]);
    expect(code).toBe(0);
    expect(stdout).toContain('(no end event)');
    expect(stdout).toContain('stop: none — the run has no run_end');
  });
});

describe('agent-trace validate', () => {
  it('exits 0 for the demo trace', async () => {
    const { code, stdout } = await cli(['validate', await demoTrace()]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/✓ .*: valid — 1 run, 75 events \(run-1: completed\)/);
  });

  it('exits 1 and lists every problem with its line', async () => {
    const path = await demoTrace();
    const { readFileSync } = await import('node:fs');
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
    const bad = join(directory, 'bad.jsonl');
    writeFileSync(
      bad,
      `${[lines[0], lines[1], 'not json', ...lines.slice(3, 8)].join('\n')}\n{"torn`,
    );
    const { code, stdout } = await cli(['validate', bad]);
    expect(code).toBe(1);
    expect(stdout).toContain('line 3: invalid_line — ');
    expect(stdout).toContain('line 4: seq_gap — seq jumps from 1 to 3');
    expect(stdout).toContain('line 9: torn_tail — the last line has no newline');
    expect(stdout).toContain('missing_run_end — run run-1 has no run_end');
  });

  it('exits 2 when the file cannot be read', async () => {
    expect((await cli(['validate', join(directory, 'missing.jsonl')])).code).toBe(2);
  });
});

describe('agent-trace', () => {
  it('shows help for every command', async () => {
    const top = await cli(['--help']);
    expect(top.code).toBe(0);
    expect(top.stdout).toContain('replay [options] <trace>');
    expect(top.stdout).toContain('validate [options] <trace>');
    expect(top.stdout).toContain('rerun [options] <trace>');
    const replay = await cli(['replay', '--help']);
    expect(replay.stdout).toContain('Exit codes: 0 rendered, 2 unreadable.');
    const rerun = await cli(['rerun', '--help']);
    expect(rerun.stdout).toContain('Exit codes: 0 same behaviour, 1 diverged, 2 unreadable.');
    expect(rerun.stdout).toContain('--agent <module>');
  });

  it('exits 2 with usage for an unknown command', async () => {
    const { code, stderr } = await cli(['explode']);
    expect(code).toBe(2);
    expect(stderr).toContain("unknown command 'explode'");
  });
});

describe('agent-trace rerun', () => {
  async function recordSmallDesk(): Promise<string> {
    const { smallDesk } = await import('../fixtures/agents/small-desk.js');
    const path = join(directory, `small-${Math.random().toString(16).slice(2)}.jsonl`);
    const sink = jsonlSink(path);
    await run(smallDesk(), 'Refund please', { trace: sink });
    await sink.close();
    return path;
  }

  it('exits 0 when today’s code does what the recording did', async () => {
    const { code, stdout } = await cli([
      'rerun',
      await recordSmallDesk(),
      '--agent',
      'test/fixtures/agents/small-desk.ts',
    ]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/✓ same behaviour: no divergence \(\d+ events, stop: completed\)$/);
  });

  it('exits 1 and names the first divergence when the code changed', async () => {
    const { code, stdout } = await cli([
      'rerun',
      await recordSmallDesk(),
      '--agent',
      'test/fixtures/agents/changed-desk.ts',
    ]);
    expect(code).toBe(1);
    expect(stdout).toMatch(
      /✗ diverged at seq 2, agent 'triage'\n {2}expected: model call 1 of 'triage' to fake-model sends request \w+ \(1 messages, last new message user: "Refund please"\)\n {2}actual: {3}model call 1 of 'triage' to fake-model sends request \w+ .*\n {2}changed: {2}the instructions: /,
    );
    expect(stdout).toMatch(/\d+ differences? in all:\n1\. seq 2/);
  });

  it('prints the report as JSON with --json', async () => {
    const { code, stdout } = await cli([
      'rerun',
      await recordSmallDesk(),
      '--agent',
      'test/fixtures/agents/changed-desk.ts',
      '--json',
    ]);
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as {
      same: boolean;
      firstDivergence: { seq: number; agent: string };
    };
    expect(report).toMatchObject({ same: false, firstDivergence: { seq: 2, agent: 'triage' } });
  });

  it('exits 2 with advice when the module has no agent', async () => {
    const { code, stderr } = await cli([
      'rerun',
      await recordSmallDesk(),
      '--agent',
      'test/fixtures/agents/not-an-agent.ts',
    ]);
    expect(code).toBe(2);
    expect(stderr).toBe(
      "Agent module 'test/fixtures/agents/not-an-agent.ts' has no default export that is an agent, a workflow, a planned run or an agent of another framework. Export the entry agent of the graph: export default agent({ ... }) (or a function that returns it), a workflow: export default loadWorkflow(...), a planned run: export default { planner, tools, agents } or an agent of another framework: export default aiSdkAgent(...).",
    );
  });
});

describe('agent-trace diff', () => {
  async function traceOf(name: string, script: FakeLLMStep[]): Promise<string> {
    const { agent, tool } = await import('@agent-trace/core');
    const { fakeLLM } = await import('@agent-trace/testing');
    const { z } = await import('zod');
    const echo = tool({
      name: 'echo',
      description: 'Echo',
      input: z.object({ n: z.number() }),
      execute: ({ n }) => n,
    });
    const path = join(directory, `${name}.jsonl`);
    const sink = jsonlSink(path);
    await run(agent({ name: 'a', model: fakeLLM(script), tools: [echo] }), 'go', { trace: sink });
    await sink.close();
    return path;
  }
  const call = (n: number) => ({ toolCalls: [{ name: 'echo', args: { n } }] });

  it('exits 0 for two runs of the same behaviour, whatever their ids and times', async () => {
    const first = await traceOf('same-a', [call(1), { text: 'done' }]);
    const second = await traceOf('same-b', [call(1), { text: 'done' }]);
    const { code, stdout } = await cli(['diff', first, second]);
    expect(code).toBe(0);
    expect(stdout).toContain('same behaviour');
  });

  it('reports an inserted step once, without a cascade', async () => {
    const first = await traceOf('ins-a', [call(1), call(3), { text: 'done' }]);
    const second = await traceOf('ins-b', [call(1), call(2), call(3), { text: 'done' }]);
    const { code, stdout } = await cli(['diff', first, second, '--json']);
    expect(code).toBe(1);
    const { differences } = JSON.parse(stdout) as {
      differences: { kind: string; actual?: string }[];
    };
    expect(
      differences.every(difference => difference.kind === 'extra' || difference.kind === 'changed'),
    ).toBe(true);
    expect(
      differences
        .filter(difference => difference.kind === 'extra')
        .map(difference => difference.actual),
    ).toContain(`tool 'echo' is called with {"n":2}`);
    expect(differences.length).toBeLessThanOrEqual(8);
  });
});

describe('agent-trace stats', () => {
  it('counts calls, errors, retries and tokens per agent, model and tool', async () => {
    const path = await demoTrace();
    const { code, stdout } = await cli(['stats', path, '--json']);
    expect(code).toBe(0);
    const { runs } = JSON.parse(stdout) as {
      runs: {
        stopReason: string;
        tools: Record<string, { calls: number; errors: number }>;
        models: Record<string, { calls: number; tokPrompt: number }>;
      }[];
    };
    expect(runs[0]!.stopReason).toBe('completed');
    expect(runs[0]!.tools.count_words).toMatchObject({ calls: 2, errors: 1 });
    expect(runs[0]!.models['fake/gpt-4o']).toMatchObject({ calls: 9 });
    const text = await cli(['stats', path]);
    expect(text.stdout).toMatch(
      /^run run-1 {2}stop: completed\nagent +calls +errors +retries +p50 ms +p95 ms +tok in +tok out +cost\n/,
    );
  });

  it('writes runs as they end, in the order they began, when runs interleave in the file', async () => {
    const lines = readFileSync(await demoTrace(), 'utf8')
      .trimEnd()
      .split('\n');
    const as = (run: string) => lines.map(line => line.replaceAll('"run-1"', `"${run}"`));
    const [a, b, c] = [as('run-a'), as('run-b'), as('run-c')];
    // run-a begins, run-b begins and ends, run-a ends, then run-c.
    const folder = mkdtempSync(join(tmpdir(), 'agent-trace-stats-'));
    const path = join(folder, 'interleaved.jsonl');
    writeFileSync(path, `${[a[0], ...b, ...a.slice(1), ...c].join('\n')}\n`);
    const json = await cli(['stats', path, '--json']);
    expect(json.code).toBe(0);
    const { runs } = JSON.parse(json.stdout) as { runs: { run: string; stopReason: string }[] };
    expect(runs.map(run => run.run)).toEqual(['run-a', 'run-b', 'run-c']);
    expect(runs.every(run => run.stopReason === 'completed')).toBe(true);
    const text = await cli(['stats', path]);
    expect([...text.stdout.matchAll(/^run (run-\w)/gm)].map(match => match[1])).toEqual([
      'run-a',
      'run-b',
      'run-c',
    ]);
  });
});

describe('agent-trace replay --follow and --speed', () => {
  async function events(): Promise<string[]> {
    const { agent, steppingClock } = await import('@agent-trace/core');
    const { fakeLLM } = await import('@agent-trace/testing');
    const { memorySink } = await import('@agent-trace/trace');
    const sink = memorySink();
    await run(agent({ name: 'a', model: fakeLLM([{ text: 'hello there' }]) }), 'hi', {
      trace: sink,
      clock: steppingClock({ stepMs: 100 }),
    });
    return sink.events.map(event => JSON.stringify(event));
  }

  it('follows a trace while it is written, a line at a time, until the run ends', async () => {
    const { appendFileSync, writeFileSync } = await import('node:fs');
    const { followCommand, createStyle } = await import('@agent-trace/cli');
    const lines = await events();
    const path = join(directory, 'live.jsonl');
    writeFileSync(path, `${lines[0]}\n`);
    const shown: string[] = [];
    // The writer is driven by what the follower shows, not by timers: each shown line lets the
    // next one be written. The third is written in two appends; a read between them would see a
    // line without its newline, which the follower holds back (it shows every line once, whole).
    let next = 1;
    const writeNext = (): void => {
      const line = lines[next++];
      if (line === undefined) return;
      if (next === 3) {
        appendFileSync(path, line.slice(0, 10));
        queueMicrotask(() => appendFileSync(path, `${line.slice(10)}\n`));
      } else appendFileSync(path, `${line}\n`);
    };
    const following = followCommand(path, {
      style: createStyle(false),
      write: line => {
        shown.push(line);
        writeNext();
      },
      pollMs: 1,
    });
    expect(await following).toMatchObject({ exitCode: 0 });
    expect(shown).toHaveLength(lines.length);
    expect(shown[0]).toMatch(/^\+ {5}0 ms {5}0 {2}run starts: "hi"$/);
    expect(shown.at(-1)).toMatch(/run ends: completed$/);
  });

  it('plays a recorded trace back with its timing, faster with --speed', async () => {
    const { writeFileSync } = await import('node:fs');
    const path = join(directory, 'timed.jsonl');
    writeFileSync(path, `${(await events()).join('\n')}\n`);
    const started = Date.now();
    const { code, stdout } = await cli(['replay', path, '--speed', '20']);
    expect(code).toBe(0);
    const shown = stdout.split('\n');
    expect(shown[0]).toMatch(/run starts/);
    expect(shown.at(-1)).toMatch(/run ends: completed$/);
    const lastOffset = Number(/^\+\s*(\d+) ms/.exec(shown.at(-1) ?? '')?.[1]);
    expect(lastOffset).toBeGreaterThan(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(lastOffset / 20 - 5);
    for (const speed of ['0', '1e-9', '1e9', 'fast']) {
      expect(await cli(['replay', path, '--speed', speed])).toMatchObject({
        code: 2,
        stderr: expect.stringMatching(
          /^Invalid --speed \S+: expected a number from 0\.01 to 1000000, e\.g\. --speed 1/,
        ) as string,
      });
    }
  });

  it('refuses to follow a directory, clearly, with exit 2', async () => {
    const { code, stderr } = await cli(['replay', directory, '--follow']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^Cannot follow '.+': it is a directory\. Give the trace file/);
  });
});

describe('agent-trace export', () => {
  it('refuses a collector that is not a URL as a usage error', async () => {
    const { code, stderr } = await cli(['export', await demoTrace(), '--otlp', 'notaurl']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^Invalid --otlp 'notaurl': expected the collector's URL, e\.g\. http:/);
  });
});
