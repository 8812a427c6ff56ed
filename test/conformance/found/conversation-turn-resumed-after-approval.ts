/**
 * Found by the program generator. A conversation whose turn paused for approval and went on:
 * its rerun resumed the turn with the conversation's `carried` count but no history (a resume
 * takes its conversation from the state), and the run refused the options. A resumed turn now
 * carries nothing.
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
      temperature: 0,
    },
    {
      name: 'billing',
      instructions: 'Be brief.',
      tools: [
        {
          name: 'billing_t0',
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
              kind: 'value',
              value: 'null',
            },
          ],
          timeoutMs: 5,
        },
      ],
      handoffs: [],
      asTools: [],
      script: [
        {
          kind: 'text',
          text: 'ok',
        },
        {
          kind: 'calls',
          calls: [
            {
              tool: 0,
              form: 1,
              seed: 4,
            },
          ],
        },
        {
          kind: 'calls',
          calls: [
            {
              tool: 2,
              form: 1,
              seed: 4,
            },
            {
              tool: 2,
              form: 2,
              seed: 0,
            },
            {
              tool: 4,
              form: 2,
              seed: 7,
            },
          ],
        },
        {
          kind: 'calls',
          calls: [
            {
              tool: 5,
              form: 0,
              seed: 4,
            },
          ],
        },
      ],
      modelAttempts: 2,
      toolRetries: 0,
      breaker: false,
      breakerShared: true,
      guardrail: 'none',
      fallback: [
        {
          kind: 'calls',
          calls: [
            {
              tool: 3,
              form: 0,
              seed: 0,
            },
          ],
        },
        {
          kind: 'calls',
          calls: [
            {
              tool: 3,
              form: 1,
              seed: 6,
            },
            {
              tool: 4,
              form: 1,
              seed: 6,
            },
          ],
        },
        {
          kind: 'text',
          text: '',
        },
      ],
      maxSteps: 8,
      approval: 'approve',
    },
  ],
  input: 'Help me with order 7',
  mode: 'run',
  secondTurn: 'And then?',
  moreTurns: ['Why?'],
  router: true,
  scrub: true,
};

export const shape = foundShape(
  'generated: a conversation turn resumed after an approval, rerun turn by turn',
  'test/conformance/found/conversation-turn-resumed-after-approval.ts',
  program,
);
export const runOptions = programRunOptions(program);
export default buildProgram(program);
