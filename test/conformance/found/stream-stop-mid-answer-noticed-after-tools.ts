/**
 * Found by the program generator. The reader stopped after six chunks, while the entry's first answer streamed; the run went on to its tool call (refused: invalid arguments) and noticed the stop before its next model call. Placing the replayed stop by run_end.stopped_made alone fired it before that answer was handed out, and the rerun made a second model call; an answer of a run one step at a time written after the stop is now awaited as made.
 */
import { buildProgram } from '../generator/build-program.js';
import { programRunOptions } from '../generator/program-options.js';
import type { Program } from '../generator/program.js';
import { foundShape } from '../harness/found-shape.js';

const program: Program = {
  agents: [
    {
      name: 'desk',
      instructions: 'Answer with the tools.',
      tools: [
        {
          name: 'desk_t0',
          schema: 'plain',
          outcomes: [
            {
              kind: 'value',
              value: 'object',
            },
            {
              kind: 'throw',
            },
          ],
        },
        {
          name: 'desk_t1',
          schema: 'optional',
          outcomes: [
            {
              kind: 'value',
              value: 'number',
            },
          ],
        },
        {
          name: 'desk_t2',
          schema: 'plain',
          outcomes: [
            {
              kind: 'value',
              value: 'text',
            },
            {
              kind: 'value',
              value: 'nested',
            },
          ],
          timeoutMs: 6,
        },
      ],
      handoffs: [],
      asTools: [1],
      script: [
        {
          kind: 'calls',
          calls: [
            {
              tool: 0,
              form: 2,
              seed: 9,
            },
            {
              tool: 0,
              form: 2,
              seed: 3,
            },
            {
              tool: 1,
              form: 0,
              seed: 9,
            },
          ],
        },
      ],
      modelAttempts: 2,
      toolRetries: 0,
      breaker: 1,
      guardrail: 'none',
      fallback: [
        {
          kind: 'calls',
          calls: [
            {
              tool: 3,
              form: 1,
              seed: 0,
            },
          ],
        },
      ],
      maxSteps: 4,
      react: true,
    },
    {
      name: 'billing',
      instructions: 'Help.',
      tools: [],
      handoffs: [],
      asTools: [],
      script: [
        {
          kind: 'text',
          text: 'Paris',
        },
      ],
      modelAttempts: 1,
      toolRetries: 0,
      breaker: 1,
      guardrail: 'none',
      maxSteps: 2,
    },
    {
      name: 'advisor',
      instructions: 'Help.',
      tools: [],
      handoffs: [],
      asTools: [],
      script: [
        {
          kind: 'empty',
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
  mode: 'stream',
  stopReadingAfter: 6,
  forkAfter: 2,
};

export const shape = foundShape(
  "a stream whose reader stopped in the middle of a model's answer (ReAct), noticed after the tool round",
  'test/conformance/found/stream-stop-mid-answer-noticed-after-tools.ts',
  program,
);
export const runOptions = programRunOptions(program);
export default buildProgram(program);
