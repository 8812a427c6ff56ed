/**
 * Found by the program generator. A run with timeoutMs 15 handed a 1 MB tool result on; its fork after two answers replayed that result in real time, and the fork's real deadline fired before the second recorded answer: 'the model fails: timeout'. A fork's deadline is now the recording's before the fork point and real for what is left after it.
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
          schema: 'plain',
          outcomes: [
            {
              kind: 'refuse',
            },
          ],
        },
        {
          name: 'desk_t1',
          schema: 'plain',
          outcomes: [
            {
              kind: 'throw',
            },
          ],
        },
        {
          name: 'desk_t2',
          schema: 'plain',
          outcomes: [
            {
              kind: 'value',
              value: 'big',
            },
            {
              kind: 'throw',
            },
          ],
        },
      ],
      handoffs: [],
      asTools: [],
      script: [
        {
          kind: 'calls',
          calls: [
            {
              tool: 2,
              form: 0,
              seed: 0,
            },
            {
              tool: 0,
              form: 0,
              seed: 0,
            },
          ],
        },
        {
          kind: 'calls',
          calls: [
            {
              tool: 0,
              form: 0,
              seed: 0,
            },
          ],
        },
      ],
      modelAttempts: 1,
      toolRetries: 0,
      breaker: false,
      guardrail: 'none',
      maxSteps: 2,
      structured: true,
    },
    {
      name: 'billing',
      instructions: 'Help.',
      tools: [],
      handoffs: [],
      asTools: [],
      script: [
        {
          kind: 'calls',
          calls: [
            {
              tool: 0,
              form: 0,
              seed: 0,
            },
          ],
        },
      ],
      modelAttempts: 1,
      toolRetries: 0,
      breaker: 1,
      guardrail: 'none',
      maxSteps: 2,
    },
  ],
  input: 'Help me with order 7',
  mode: 'run',
  timeoutMs: 15,
  router: true,
  forkAfter: 2,
};

export const shape = foundShape(
  'a fork of a run with a deadline, whose replay before the fork point takes real time',
  'test/conformance/found/fork-before-point-under-real-deadline.ts',
  program,
);
export const runOptions = programRunOptions(program);
export default buildProgram(program);
