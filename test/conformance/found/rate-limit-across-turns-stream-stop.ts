/**
 * Found by the program generator. Rerun alone, the second turn's first call did not wait (the limiter had not seen the first turn), so the rerun made one rate-limit wait fewer than the recording, and the replayed stop (which fires once the rerun has made what the recording made before it) came a call late. Fixed: a rate limit's waits do not count towards where a replayed stop lands.
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
              kind: 'throw-string',
            },
          ],
        },
        {
          name: 'desk_t1',
          schema: 'plain',
          outcomes: [
            {
              kind: 'value',
              value: 'text',
            },
          ],
        },
      ],
      handoffs: [],
      asTools: [],
      script: [
        {
          kind: 'text',
          text: 'Paris',
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
      react: true,
    },
  ],
  input: 'Help me with order 7',
  mode: 'stream',
  stopReadingAfter: 9,
  secondTurn: 'And then?',
  rateLimit: 1,
};

export const shape = foundShape(
  "generated: a conversation's second turn behind a rate limit both turns share, its stream's reader stopping",
  'test/conformance/found/rate-limit-across-turns-stream-stop.ts',
  program,
);
export const runOptions = programRunOptions(program);
export default buildProgram(program);
