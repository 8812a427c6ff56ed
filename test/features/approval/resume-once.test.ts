import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agent, resume, run, sequentialIds, tool } from '@agent-trace/core';
import {
  memoryResumeLedger,
  StateAlreadyResumedError,
  type ApprovalDecision,
  type RunStateSnapshot,
} from '@agent-trace/core/approval';
import { resumeWorkflow, runWorkflow, workflow } from '@agent-trace/core/workflow';
import { fakeLLM, type FakeLLMStep } from '@agent-trace/testing';
import {
  fileResumeLedger,
  jsonlSink,
  memorySink,
  readTrace,
  validateTrace,
  validateTraceFile,
} from '@agent-trace/trace';
import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { deterministic } from '../../support/deterministic.js';

const refunds: number[] = [];
beforeEach(() => {
  refunds.length = 0;
});
const refund = tool({
  name: 'refund',
  description: 'Refund an order',
  input: z.object({ order: z.number(), amount: z.number() }),
  needsApproval: true,
  execute: ({ amount }) => {
    refunds.push(amount);
    return `refunded ${amount}`;
  },
});
const ask: FakeLLMStep = {
  toolCalls: [{ name: 'refund', args: { order: 42, amount: 80 }, id: 'r1' }],
};
/** The desk on a fresh script each time, as another process would build it. */
const desk = (script: readonly FakeLLMStep[] = [{ text: 'Refunded.' }]) => deskOn(fakeLLM(script));
const deskOn = (model: ReturnType<typeof fakeLLM>) =>
  agent({ name: 'desk', model, tools: [refund] });
const approve: ApprovalDecision[] = [{ callId: 'r1', decision: 'approve', by: 'ana' }];

/** A run paused before the refund, its state as stored. */
async function paused(options: Parameters<typeof run>[2] = {}): Promise<RunStateSnapshot> {
  const result = await run(desk([ask]), 'Refund order 42', { ...deterministic(), ...options });
  return JSON.parse(JSON.stringify(result.state)) as RunStateSnapshot;
}

describe('a paused state goes on once', () => {
  it('a second resume into the same trace is refused, naming the run and when; the refund ran once', async () => {
    const sink = memorySink();
    const state = await paused({ trace: sink });
    const first = await resume(desk(), state, {
      decisions: approve,
      trace: sink,
      ...deterministic(),
    });
    expect(first.stopReason).toBe('completed');
    const second = resume(desk([]), state, { decisions: approve, trace: sink, ...deterministic() });
    await expect(second).rejects.toThrow(StateAlreadyResumedError);
    await expect(second).rejects.toThrow(
      new RegExp(
        `The state of run ${state.run.id} paused at seq ${state.run.pausedAtSeq} \\(state ${state.run.stateId}\\) was already resumed at 20`,
      ),
    );
    await expect(second).rejects.toMatchObject({
      earlier: {
        stateId: state.run.stateId,
        runId: state.run.id,
        pausedAtSeq: state.run.pausedAtSeq,
      },
    });
    expect(refunds).toEqual([80]);
    expect(validateTrace(sink.events).problems).toEqual([]);
    const starts = sink.events.filter(event => event.event === 'run_start');
    expect(starts.map(event => (event as { resumed?: unknown }).resumed)).toEqual([
      undefined,
      { after_seq: state.run.pausedAtSeq, state_id: state.run.stateId },
    ]);
  });

  it('two resumes of one state into one JSONL file, from two sinks (two processes): one goes on', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'agent-trace-resume-once-'));
    const file = join(folder, 'desk.jsonl');
    const before = jsonlSink(file);
    const state = await paused({ trace: before });
    await before.close();
    const [a, b] = [jsonlSink(file), jsonlSink(file)];
    // One script for both: whichever goes on answers from it.
    const model = fakeLLM([{ text: 'Refunded.' }]);
    const outcomes = await Promise.allSettled([
      resume(deskOn(model), state, { decisions: approve, trace: a }),
      resume(deskOn(model), state, { decisions: approve, trace: b }),
    ]);
    await Promise.all([a.close(), b.close()]);
    expect(outcomes.map(outcome => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(refunds).toEqual([80]);
    expect(readdirSync(`${file}.resumed`)).toHaveLength(1);
    const report = await validateTraceFile(file);
    expect(report.problems).toEqual([]);
    expect(report.runs).toMatchObject([{ run: state.run.id, stopReason: 'completed' }]);
  });

  it('with no trace, in one process: refused by the process ledger', async () => {
    const state = await paused();
    await resume(desk(), state, { decisions: approve });
    await expect(resume(desk([]), state, { decisions: approve })).rejects.toThrow(
      StateAlreadyResumedError,
    );
    expect(refunds).toEqual([80]);
  });

  it('a ledger of the caller’s own decides, across sinks and processes', async () => {
    const ledger = fileResumeLedger(mkdtempSync(join(tmpdir(), 'agent-trace-ledger-')));
    const state = await paused();
    await resume(desk(), state, { decisions: approve, resumeLedger: ledger, trace: memorySink() });
    await expect(
      resume(desk([]), state, { decisions: approve, resumeLedger: ledger, trace: memorySink() }),
    ).rejects.toThrow(/was already resumed/);
    expect(refunds).toEqual([80]);
  });

  it('a state refused for what it is (changed, another agent) is not used up', async () => {
    const state = await paused();
    const changed = { ...state, run: { ...state.run, input: 'Refund order 43' } };
    await expect(resume(desk([]), changed, { decisions: approve })).rejects.toThrow(/was changed/);
    await expect(
      resume(agent({ name: 'other', model: fakeLLM([]) }), state, { decisions: approve }),
    ).rejects.toThrow(/not 'other'/);
    expect((await resume(desk(), state, { decisions: approve })).stopReason).toBe('completed');
  });

  it('fork: another decision from the same pause goes on as a new run, with its own part of the trace', async () => {
    const sink = memorySink();
    const state = await paused({ trace: sink });
    await resume(desk(), state, { decisions: approve, trace: sink, ...deterministic() });
    const reject: ApprovalDecision[] = [{ callId: 'r1', decision: 'reject', reason: 'too much' }];
    const ids = { ...sequentialIds(), runId: () => 'fork-1' };
    const forked = await resume(desk([{ text: 'Store credit, then.' }]), state, {
      decisions: reject,
      trace: sink,
      fork: true,
      ids,
    });
    expect(forked).toMatchObject({ runId: 'fork-1', stopReason: 'completed' });
    expect(refunds).toEqual([80]);
    const report = validateTrace(sink.events);
    expect(report.problems).toEqual([]);
    expect(report.runs.map(entry => entry.run)).toEqual([state.run.id, 'fork-1']);
    const forkStart = sink.events.find(event => event.run === 'fork-1');
    expect(forkStart).toMatchObject({
      seq: 0,
      event: 'run_start',
      forked_from: { run: state.run.id, after_step: 1, seq: state.run.pausedAtSeq },
    });
    expect(forkStart).not.toHaveProperty('resumed');
    // A fork does not use the state up; it can be forked again.
    await resume(desk(), state, { decisions: approve, fork: true });
    expect(refunds).toEqual([80, 80]);
  });

  it('a workflow state goes on once too', async () => {
    const publish = tool({
      name: 'publish',
      description: 'Publishes',
      input: z.unknown(),
      execute: () => {
        refunds.push(1);
        return 'published';
      },
    });
    const release = workflow({
      name: 'release',
      steps: [
        { name: 'sign-off', approval: 'Ship it?' },
        { name: 'publish', tool: publish, dependsOn: ['sign-off'] },
      ],
    });
    const sink = memorySink();
    const pausedRun = await runWorkflow(release, null, { trace: sink });
    const decisions: ApprovalDecision[] = [{ callId: 'sign-off', decision: 'approve' }];
    await resumeWorkflow(release, pausedRun.state!, { decisions, trace: sink });
    await expect(
      resumeWorkflow(release, pausedRun.state!, { decisions, trace: sink }),
    ).rejects.toThrow(StateAlreadyResumedError);
    expect(refunds).toEqual([1]);
    expect(validateTrace(sink.events).problems).toEqual([]);
  });
});

describe('any interleaving of two resumes of one state', () => {
  it('lets at most one go on; the refund runs once and the trace validates', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.constantFrom('memory sink', 'own ledger', 'process ledger'),
        async (scheduler, where) => {
          refunds.length = 0;
          const sink = memorySink();
          const state = await paused({ trace: sink });
          const ledger = memoryResumeLedger();
          const scheduled = { claim: scheduler.scheduleFunction(ledger.claim.bind(ledger)) };
          const options = () => ({
            decisions: approve,
            trace: sink,
            ...(where === 'own ledger' ? { resumeLedger: scheduled } : {}),
            ...(where === 'process ledger' ? { trace: [] } : {}),
          });
          const model = fakeLLM([{ text: 'Refunded.' }]);
          const both = Promise.allSettled([
            scheduler
              .schedule(Promise.resolve())
              .then(() => resume(deskOn(model), state, options())),
            scheduler
              .schedule(Promise.resolve())
              .then(() => resume(deskOn(model), state, options())),
          ]);
          await scheduler.waitFor(both);
          const outcomes = await both;
          const goneOn = outcomes.filter(outcome => outcome.status === 'fulfilled');
          const refused = outcomes.flatMap(outcome =>
            outcome.status === 'rejected' ? [outcome.reason as unknown] : [],
          );
          expect(goneOn).toHaveLength(1);
          expect(refused).toHaveLength(1);
          expect(refused[0]).toBeInstanceOf(StateAlreadyResumedError);
          expect(refunds).toEqual([80]);
          expect(validateTrace(sink.events).problems).toEqual([]);
        },
      ),
      { numRuns: 60, seed: 27 },
    );
  });
});

describe('the JSONL trace keeps its ledger beside it', () => {
  it('in <trace>.resumed/, one file per resumed state', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'agent-trace-resume-once-'));
    const file = join(folder, 'desk.jsonl');
    const sink = jsonlSink(file);
    const state = await paused({ trace: sink });
    expect(existsSync(`${file}.resumed`)).toBe(false);
    await resume(desk(), state, { decisions: approve, trace: sink });
    await sink.close();
    expect(readdirSync(`${file}.resumed`)).toHaveLength(1);
    const events: string[] = [];
    for await (const event of readTrace(file)) events.push(event.event);
    expect(events.filter(kind => kind === 'run_start')).toHaveLength(2);
  });
});

describe('a state resumed on this machine into another trace file', () => {
  it('goes on once: a second process resuming it into a new trace is refused (the user ledger)', async () => {
    const { execFile } = await import('node:child_process');
    const { promisify } = await import('node:util');
    const exec = promisify(execFile);
    const folder = mkdtempSync(join(tmpdir(), 'agent-trace-resume-elsewhere-'));
    const state = join(folder, 'state.json');
    const step = (...args: string[]) =>
      exec(process.execPath, ['--import', 'tsx', 'test/fixtures/resume-elsewhere.ts', ...args]);
    await step('pause', join(folder, 'paused.jsonl'), state);
    const first = await step('resume', join(folder, 'monday.jsonl'), state);
    const second = await step('resume', join(folder, 'tuesday.jsonl'), state);
    expect([first.stdout, second.stdout]).toEqual(['refunded\n', 'StateAlreadyResumedError\n']);
  }, 30_000);
});
