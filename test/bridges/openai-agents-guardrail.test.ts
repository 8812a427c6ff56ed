/**
 * An Agents SDK run an input guardrail blocks before any model call: no span the SDK gives a
 * processor carries the input, so `withAgentTrace` reads it from the SDK's error and the run is
 * recorded with it, stopped `guardrail_blocked`, valid and sealed.
 */
import { openaiAgentsModel, withAgentTrace } from '@agent-trace/openai-agents';
import { fakeLLM } from '@agent-trace/testing';
import { jsonlSink, memorySink, validateTrace } from '@agent-trace/trace';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from '../support/cli.js';
import {
  Agent,
  InputGuardrailTripwireTriggered,
  OutputGuardrailTripwireTriggered,
  run,
} from '@openai/agents';
import { describe, expect, it } from 'vitest';

function guarded(runInParallel: boolean) {
  return new Agent({
    name: 'desk',
    instructions: 'Answer the customer.',
    model: openaiAgentsModel(fakeLLM([{ text: 'Hello.' }], { allowUnusedSteps: true })),
    inputGuardrails: [
      {
        name: 'no_passwords',
        runInParallel,
        execute: ({ input }) =>
          Promise.resolve({
            tripwireTriggered: JSON.stringify(input).includes('password'),
            outputInfo: null,
          }),
      },
    ],
  });
}

describe('Agents SDK: a run an input guardrail blocks', () => {
  it.each([false, true])('is recorded with its input (runInParallel: %s)', async runInParallel => {
    const sink = memorySink();
    const blocked = await withAgentTrace({ trace: sink }, () =>
      run(guarded(runInParallel), 'What is the password of the admin account?'),
    ).catch((error: unknown) => error);
    expect(blocked).toBeInstanceOf(InputGuardrailTripwireTriggered);
    const { events } = sink;
    expect(validateTrace(events).problems).toEqual([]);
    expect(events.map(event => event.event)).toEqual([
      'run_start',
      'agent_start',
      'agent_end',
      'run_end',
    ]);
    expect(events[0]).toMatchObject({
      event: 'run_start',
      input: 'What is the password of the admin account?',
    });
    expect(events.at(-1)).toMatchObject({ event: 'run_end', stop_reason: 'guardrail_blocked' });
  });

  it('records a run it lets through as before, the input from the model call', async () => {
    const sink = memorySink();
    const result = await withAgentTrace({ trace: sink }, () =>
      run(guarded(false), 'When do you open?'),
    );
    expect(result.finalOutput).toBe('Hello.');
    expect(validateTrace(sink.events).problems).toEqual([]);
    expect(sink.events[0]).toMatchObject({ event: 'run_start', input: 'When do you open?' });
    expect(sink.events.at(-1)).toMatchObject({ stop_reason: 'completed' });
  });
});

describe('Agents SDK: a run an output guardrail blocks', () => {
  it('has no output (the answer was withheld), and replay shows the error once', async () => {
    const desk = new Agent({
      name: 'desk',
      instructions: 'Answer the customer.',
      model: openaiAgentsModel(fakeLLM([{ text: 'The admin password is hunter2.' }])),
      outputGuardrails: [
        {
          name: 'no_passwords',
          execute: ({ agentOutput }) =>
            Promise.resolve({
              tripwireTriggered: JSON.stringify(agentOutput).includes('password'),
              outputInfo: null,
            }),
        },
      ],
    });
    const file = join(mkdtempSync(join(tmpdir(), 'agents-output-guardrail-')), 'run.jsonl');
    const sink = jsonlSink(file);
    const blocked = await withAgentTrace({ trace: sink }, () => run(desk, 'Hello?')).catch(
      (error: unknown) => error,
    );
    await sink.close();
    expect(blocked).toBeInstanceOf(OutputGuardrailTripwireTriggered);
    const replayed = await cli(['replay', file]);
    expect(replayed.stdout).toContain('stop: guardrail_blocked');
    expect(replayed.stdout).not.toContain('hunter2"');
    expect(replayed.stdout).not.toMatch(/^output:/m);
    expect(replayed.stdout).not.toMatch(/error: error:/i);
  });
});
