import { agent, run, tool, type TraceEvent } from '@agent-trace/core';
import { standardFeatures, type Feature } from '@agent-trace/core/features';
import { fakeLLM, forkTrace } from '@agent-trace/testing';
import { memorySink, validateTrace } from '@agent-trace/trace';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { reviewDesk, type ModelFor } from '../../examples/document-review/agents.js';
import { draft } from '../../examples/document-review/draft.js';

/** The desk's own scripts are not used in a fork (the recording and the new model answer). */
const scriptsUnused: ModelFor = (_agent, script, modelId) =>
  fakeLLM(script, { modelId, allowUnusedSteps: true });

const ran: number[] = [];
const add = tool({
  name: 'add',
  description: 'Add two numbers',
  input: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => {
    ran.push(a + b);
    return a + b;
  },
});
const step = (a: number) => ({ toolCalls: [{ name: 'add', args: { a, b: 1 } }] });
const adder = (script: Parameters<typeof fakeLLM>[0]) =>
  agent({ name: 'adder', model: fakeLLM(script, { allowUnusedSteps: true }), tools: [add] });

async function record(): Promise<TraceEvent[]> {
  const sink = memorySink();
  await run(adder([step(1), step(2), step(3), step(4), { text: 'done: 5' }]), 'count', {
    trace: sink,
  });
  return sink.events;
}

describe('forkTrace (time travel)', () => {
  it('reproduces steps 1..K exactly, then goes on with the new answers, and records the fork', async () => {
    const recorded = await record();
    ran.length = 0;
    const report = await forkTrace(recorded, adder([]), {
      afterStep: 2,
      model: fakeLLM([step(10), { text: 'forked: 11' }], { modelId: 'other-model' }),
    });
    expect(report.reproduced).toBe(true);
    expect(report.result).toMatchObject({ stopReason: 'completed', output: 'forked: 11' });
    // Steps 1 and 2 answered from the recording (their tools too); the fork's tool ran for real.
    expect(ran).toEqual([11]);
    expect(report.firstDivergence).toMatchObject({
      kind: 'changed',
      expected: expect.stringMatching(/^model call 3 of 'adder' to fake-model/) as string,
      actual: expect.stringMatching(/^model call 3 of 'adder' to other-model/) as string,
    });
    const recordedAnswer = recorded.filter(event => event.event === 'llm_end')[1]!;
    expect(report.events[0]).toMatchObject({
      event: 'run_start',
      forked_from: { run: recorded[0]!.run, after_step: 2, seq: recordedAnswer.seq },
    });
    expect(report.events[0]!.run).not.toBe(recorded[0]!.run);
    // Each call's cost belongs to the model that answered it: the recording's, then the new one.
    expect(report.events.at(-1)).toMatchObject({
      cost: { unpriced_calls: 4, unpriced_models: ['fake/fake-model', 'fake/other-model'] },
    });
    expect(validateTrace(report.events).problems).toEqual([]);
  });

  it('forks a multi-agent run at any step: the demo desk, at each of its first answers', async () => {
    const sink = memorySink();
    await run(reviewDesk(), `Review this draft: ${draft}`, { trace: sink, session: 'demo' });
    const answers = sink.events.filter(
      event => event.event === 'llm_end' && event.error === undefined,
    );
    for (const afterStep of [0, 1, 4, answers.length - 1]) {
      const report = await forkTrace(sink.events, reviewDesk(scriptsUnused), {
        afterStep,
        model: fakeLLM([{ text: 'A different answer.' }], {
          modelId: 'what-if',
          onUnexpectedCall: () => ({ text: 'A different answer.' }),
        }),
      });
      expect(report.reproduced).toBe(true);
      expect(validateTrace(report.events).problems).toEqual([]);
      const firstNew = report.events.find(
        event => event.event === 'llm_start' && event.model === 'what-if',
      );
      expect(firstNew).toBeDefined();
      expect(
        report.events.filter(event => event.event === 'llm_end' && event.seq < firstNew!.seq),
      ).toHaveLength(afterStep);
    }
  });

  it('for any recorded run and any step K: steps 1..K reproduced, then the new answers', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 1, maxLength: 6 }),
        fc.nat(),
        async (sums, pick) => {
          const sink = memorySink();
          await run(adder([...sums.map(step), { text: 'done' }]), 'count', { trace: sink });
          // The recorded run may stop early (the same call three times is a duplicate).
          const answers = sink.events.filter(event => event.event === 'llm_end').length;
          const afterStep = pick % (answers + 1);
          const report = await forkTrace(sink.events, adder([]), {
            afterStep,
            model: fakeLLM([{ text: 'what if' }], { modelId: 'what-if', allowUnusedSteps: true }),
          });
          expect(report.reproduced).toBe(true);
          if (afterStep < answers) expect(report.result.output).toBe('what if');
          else expect(report.firstDivergence).toBeUndefined();
          expect(validateTrace(report.events).problems).toEqual([]);
        },
      ),
      { numRuns: 100, seed: 1718 },
    );
  });

  it('refuses a step the recording does not have', async () => {
    const recorded = await record();
    await expect(
      forkTrace(recorded, adder([]), { afterStep: 9, model: fakeLLM([]) }),
    ).rejects.toThrow(
      /afterStep must be a whole number from 0 to 5 \(the recorded run has 5 model answers\); it is 9/,
    );
  });

  it("keeps the recording's deadline before the fork point, and runs what is left of it after", async () => {
    const sink = memorySink();
    await run(adder([step(1), step(2), step(3), step(4), { text: 'done: 5' }]), 'count', {
      trace: sink,
      timeoutMs: 60,
    });
    // Each model call of the fork waits 30 ms of real time first (a slow feature of today's code):
    // the replay before the fork point takes longer than the deadline, which the recording's
    // clock, not the replay's own time, decides there.
    const slow: Feature = {
      name: 'slow',
      version: 2,
      forRun: () => ({
        beforeModelCall: () =>
          new Promise<undefined>(resolve => setTimeout(() => resolve(undefined), 30)),
      }),
    };
    const options = { timeoutMs: 60, features: [...standardFeatures, slow] };
    const report = await forkTrace(sink.events, adder([]), {
      afterStep: 3,
      model: fakeLLM([{ text: 'what if' }], { allowUnusedSteps: true }),
      run: options,
    });
    expect(report.reproduced).toBe(true);
    expect(report.result).toMatchObject({ output: 'what if', stopReason: 'completed' });
    // Past the fork point the deadline is real: a new answer slower than what is left stops it.
    const late = await forkTrace(sink.events, adder([]), {
      afterStep: 3,
      model: fakeLLM(
        [() => new Promise(resolve => setTimeout(() => resolve({ text: 'too late' }), 200))],
        { allowUnusedSteps: true },
      ),
      run: { timeoutMs: 60 },
    });
    expect(late.reproduced).toBe(true);
    expect(late.result).toMatchObject({ stopReason: 'timeout' });
  });
});
