/** The four checks every shape of the matrix passes. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnyAgent, TraceEvent } from '@agent-trace/core';
import {
  forkTrace,
  formatDivergence,
  isBridgedAgent,
  recordedConversations,
  recordedEvents,
  recordedRuns,
  rerunConversation,
  rerunTrace,
  simulatedUserRuns,
  validateTraceFile,
  type BridgedAgent,
  type Divergence,
  type PlanTarget,
  type RerunReport,
  type RerunTarget,
} from '@agent-trace/trace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentTraceProcess } from './cli-process.js';
import type { Change, Planted, Shape } from './shape.js';

/**
 * Reruns every run of `file` against `target`: one report a run. The turns of a conversation
 * rerun in order, each from what the rerun of the one before left (`rerunConversation`).
 */
async function rerunAll(
  file: string,
  events: readonly TraceEvent[],
  target: RerunTarget | BridgedAgent,
  { liveTools = false, run }: { liveTools?: boolean; run?: Shape['runOptions'] } = {},
): Promise<RerunReport<unknown>[]> {
  const conversations = isBridgedAgent(target) ? [] : recordedConversations(events);
  const turns = new Set(conversations.flatMap(each => each.turns.map(turn => turn.runId)));
  const reports: RerunReport<unknown>[] = [];
  for (const { id } of conversations) {
    const rerun = await rerunConversation(file, target as AnyAgent, {
      conversationId: id,
      liveTools,
      ...(run === undefined ? {} : { run }),
    });
    reports.push(...rerun.turns.map(turn => turn.report));
  }
  const users = simulatedUserRuns(events);
  for (const runId of recordedRuns(events).filter(each => !turns.has(each) && !users.has(each)))
    reports.push(
      isBridgedAgent(target)
        ? await target.rerun(file, { liveTools, runId })
        : await rerunTrace(file, target, {
            liveTools,
            runId,
            ...(run === undefined ? {} : { run }),
          }),
    );
  return reports;
}

const said = (divergence: Divergence): string =>
  [
    divergence.expected,
    divergence.actual,
    ...(divergence.explanation ?? []).map(change => change.summary),
  ].join('\n');

/**
 * What the event a planted change must first show at is (in the rerun's trace, or the
 * recording's for a step the rerun skipped), and the words that explain it: the planted agent's
 * first model call for a change to its request, a result of the planted tool for a changed output.
 */
function expectation(
  change: Change,
  planted: Planted,
): { at: (event: TraceEvent | undefined) => boolean; words: RegExp } {
  if (change === 'tool output')
    return {
      at: event => event?.event === 'tool_end' && event.tool === planted.tool,
      words: new RegExp(`tool '${planted.tool}' returns`),
    };
  const words =
    change === 'instructions'
      ? /instructions/
      : change === 'tool description'
        ? new RegExp(`tool '${planted.tool}' description`)
        : new RegExp(`the tool list: .*${planted.tool}`);
  return {
    at: event => event?.event === 'llm_start' && event.agent === planted.agent && event.step === 1,
    words,
  };
}

/** Registers the matrix's checks of `shape` as a vitest suite. */
export function checkShape(shape: Shape): void {
  describe(`conformance: ${shape.name}`, () => {
    let file = '';
    let events: TraceEvent[] = [];
    beforeAll(async () => {
      file = join(mkdtempSync(join(tmpdir(), 'agent-trace-conformance-')), 'recording.jsonl');
      await shape.record(file);
      events = [...(await recordedEvents(file))];
    });
    afterAll(async () => {
      await shape.close?.();
    });

    it('records a trace that validates', async () => {
      const report = await validateTraceFile(file);
      expect(report.problems).toEqual([]);
      expect(report.runs).toHaveLength((shape.runs ?? 1) + (shape.userRuns ?? 0));
      shape.holds?.(events);
    });

    it('reruns unchanged as the same, 3 times, through the API', async () => {
      for (let time = 0; time < 3; time++) {
        const reports = await rerunAll(file, events, await shape.build(), {
          run: shape.runOptions,
        });
        expect(reports).toHaveLength(shape.runs ?? 1);
        for (const report of reports) expect(report.differences).toEqual([]);
      }
    });

    if (shape.liveTools === true)
      it('reruns unchanged as the same with the real tools', async () => {
        const reports = await rerunAll(file, events, await shape.build(), {
          liveTools: true,
          run: shape.runOptions,
        });
        for (const report of reports)
          expect(report.firstDivergence && formatDivergence(report.firstDivergence)).toBe(
            undefined,
          );
      });

    it('reruns unchanged as the same through the CLI, 3 times, each process ending by itself', async () => {
      const processes = await Promise.all(
        [1, 2, 3].map(() => agentTraceProcess(['rerun', file, '--agent', shape.module], 45_000)),
      );
      for (const done of processes) {
        expect(done.killed, `killed after ${Math.round(done.ms)} ms: ${done.stdout}`).toBe(false);
        expect({ code: done.code, stdout: done.stdout }).toMatchObject({ code: 0 });
        expect(done.stdout).toMatch(/same behaviour/);
        if ((shape.runs ?? 1) > 1) expect(done.stdout).toContain(`all ${shape.runs} runs: same`);
      }
    }, 60_000);

    for (const [change, planted] of Object.entries(shape.changes) as [Change, Planted][]) {
      it(`catches a planted change (${change}) at the right seq, in words`, async () => {
        const target = await shape.build(change);
        const reports = await rerunAll(file, events, target, {
          liveTools: change === 'tool output',
          run: shape.runOptions,
        });
        const report = reports.find(each => !each.same);
        expect(report, 'the rerun says same').toBeDefined();
        const first = report!.firstDivergence!;
        const { at, words } = expectation(change, planted);
        const trace = first.kind === 'missing' ? report!.recorded : report!.rerun;
        const event = trace.find(each => each.seq === first.seq);
        expect(first.agent).toBe(planted.agent);
        expect(at(event), `seq ${first.seq} is ${event?.event} of '${event?.agent}'`).toBe(true);
        expect(said(first)).toMatch(words);
      });
    }

    const { fork } = shape;
    if (fork !== undefined)
      it(`forks after step ${fork.afterStep}`, async () => {
        const report = await forkTrace(file, (await shape.build()) as AnyAgent | PlanTarget, {
          afterStep: fork.afterStep,
          model: fork.model(),
          ...(fork.decisions === undefined ? {} : { decisions: fork.decisions }),
        });
        expect(report.reproduced).toBe(true);
        fork.expect(report);
      });
  });
}
