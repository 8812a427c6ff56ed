/**
 * Found by the program generator (seed 2):
 * P1: run 1 of 1 reruns unchanged as diverged:
 * seq 4, agent 'desk': the rerun did something the recording does not have
 *   actual:   model call 2 of 'desk' to fake-model sends request 0a405c67105ac0 (3 messages, last new message user: "Now give your final answer as a JSON object that matches this JSON Schema, wit…)
 * seq 5, agent 'desk': the rerun did something the recording does not have
 */
import { buildProgram } from '../generator/build-program.js';
import { programRunOptions } from '../generator/program-options.js';
import type { Program } from '../generator/program.js';
import { foundShape } from '../harness/found-shape.js';

const program: Program = {
  agents: [
    {
      name: 'desk',
      instructions: 'Be brief.',
      tools: [
        {
          name: 'desk_t0',
          schema: 'refine',
          outcomes: [
            {
              kind: 'throw-string',
            },
            {
              kind: 'value',
              value: 'text',
            },
            {
              kind: 'refuse',
            },
          ],
          timeoutMs: 16,
        },
        {
          name: 'desk_t1',
          schema: 'optional',
          outcomes: [
            {
              kind: 'value',
              value: 'date',
            },
            {
              kind: 'value',
              value: 'date',
            },
          ],
          timeoutMs: 38,
        },
        {
          name: 'desk_t2',
          schema: 'refine',
          outcomes: [
            {
              kind: 'throw',
            },
            {
              kind: 'value',
              value: 'bigint',
            },
            {
              kind: 'slow',
              ms: 12,
            },
          ],
        },
      ],
      handoffs: [],
      asTools: [],
      script: [
        {
          kind: 'text',
          text: '注文',
        },
      ],
      modelAttempts: 1,
      toolRetries: 0,
      breaker: 1,
      guardrail: 'none',
      fallback: [
        {
          kind: 'calls',
          calls: [
            {
              tool: 2,
              form: 2,
              seed: 6,
            },
            {
              tool: 0,
              form: 1,
              seed: 8,
            },
          ],
        },
      ],
      maxSteps: 5,
      approval: 'approve',
      structured: true,
    },
  ],
  input: 'Help me with order 7',
  mode: 'stream',
  stopReadingAfter: 1,
  quota: 1,
  rateLimit: 2,
  forkAfter: 2,
};

export const shape = foundShape(
  'generated (seed 2): P1: run 1 of 1 reruns unchanged as diverged:',
  'test/conformance/found/found-2-mwzk7mq8.ts',
  program,
);
export const runOptions = programRunOptions(program);
export default buildProgram(program);
