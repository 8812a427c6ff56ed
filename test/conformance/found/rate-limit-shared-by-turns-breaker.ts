/**
 * Found by the program generator. The second of two runs sharing a limit of one request a minute waited behind the first run's call; a rerun of it alone (a fresh limiter) did not wait, and its breaker, opened by a 429, refused the retry: 'the model fails: circuit_open' where the recording was sent. The wait other runs made is now recorded (rate_limit_wait.by_others) and replayed.
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
      tools: [],
      handoffs: [],
      asTools: [],
      script: [
        {
          kind: 'text',
          text: 'Paris',
        },
        {
          kind: 'fault',
          status: 429,
        },
      ],
      modelAttempts: 2,
      toolRetries: 0,
      breaker: 1,
      guardrail: 'none',
      maxSteps: 2,
      temperature: 0,
    },
  ],
  input: 'Help me with order 7',
  mode: 'run',
  secondTurn: 'And then?',
  router: true,
  rateLimit: 1,
};

export const shape = foundShape(
  "a second turn's wait behind the first turn's call, a breaker cooling meanwhile",
  'test/conformance/found/rate-limit-shared-by-turns-breaker.ts',
  program,
);
export const runOptions = programRunOptions(program);
export default buildProgram(program);
