/**
 * Found by the program generator. P5: the fork slept the recorded backoff in real time and its deadline stopped it.
 */
import { buildProgram } from '../generator/build-program.js';
import { programRunOptions } from '../generator/program-options.js';
import type { Program } from '../generator/program.js';
import { foundShape } from '../harness/found-shape.js';

const program: Program = {
  agents: [
    {
      name: 'desk',
      instructions: 'Help.',
      tools: [
        {
          name: 'desk_t0',
          schema: 'transform',
          outcomes: [
            { kind: 'value', value: 'undefined' },
            { kind: 'throw' },
            { kind: 'value', value: 'object' },
          ],
          timeoutMs: 7,
        },
        {
          name: 'desk_t1',
          schema: 'plain',
          outcomes: [{ kind: 'throw' }, { kind: 'value', value: 'bigint' }],
          timeoutMs: 9,
        },
        {
          name: 'desk_t2',
          schema: 'default',
          outcomes: [{ kind: 'value', value: 'object' }],
          timeoutMs: 36,
        },
      ],
      handoffs: [],
      asTools: [],
      script: [
        { kind: 'fault', status: 503 },
        { kind: 'text', text: 'a "quoted" word' },
        { kind: 'calls', calls: [{ tool: 2, form: 1, seed: 6 }] },
        { kind: 'text', text: '注文' },
        { kind: 'calls', calls: [{ tool: 0, form: 2, seed: 2 }] },
      ],
      modelAttempts: 2,
      toolRetries: 1,
      breaker: false,
      guardrail: 'none',
      fallback: [
        { kind: 'fault', status: 500 },
        { kind: 'text', text: 'Zürich 🚆' },
        { kind: 'fault', status: 429 },
        { kind: 'empty' },
        {
          kind: 'calls',
          calls: [
            { tool: 0, form: 1, seed: 4 },
            { tool: 5, form: 2, seed: 7 },
          ],
        },
      ],
      maxSteps: 3,
    },
  ],
  input: 'Weather in Paris?',
  mode: 'run',
  timeoutMs: 58,
};

export const shape = foundShape(
  'generated: a fork of a run that retried a 503 (1 s backoff) under a 58 ms deadline',
  'test/conformance/found/fork-backoff-under-deadline.ts',
  program,
);
export const runOptions = programRunOptions(program);
export default buildProgram(program);
