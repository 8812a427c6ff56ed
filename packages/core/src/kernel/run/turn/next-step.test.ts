import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ModelResponse } from '../../model/language-model.js';
import type { ToolCallRequest } from '../../protocol/message.js';
import { stopReasons, type StopReason } from '../../protocol/stop-reason.js';
import { createTerminationPolicy } from '../../termination/create-termination-policy.js';
import type { TerminationPolicy } from '../../termination/termination-policy.js';
import {
  decideNextStep,
  stepLimitStop,
  stopConditionStop,
  type DecisionInput,
  type NextStep,
} from './next-step.js';
import { ToolCallLedger } from '../tools/tool-call-ledger.js';
import { pendingApprovalCheck } from '../../../features/approval/approval-feature.js';
import { overBudgetCheck } from '../../../features/cost/budget-limits.js';

const call = (toolName: string, args: unknown = {}, callId = toolName): ToolCallRequest => ({
  callId,
  toolName,
  argumentsText: JSON.stringify(args),
});
const response = (over: Partial<ModelResponse> = {}): ModelResponse => ({
  text: '',
  toolCalls: [],
  finishReason: 'stop',
  usage: { promptTokens: 10, completionTokens: 5 },
  ...over,
});
const policy = createTerminationPolicy({
  maxDuplicateToolCalls: 2,
  maxToolCallsPerTool: 3,
  maxTotalTokens: 100,
});
const Answer = z.object({ answer: z.string() });

/** A decision input: the response, and the turn so far (ran: calls already made). */
function input(
  answer: ModelResponse,
  over: Partial<DecisionInput> & { ran?: readonly ToolCallRequest[]; tokens?: number } = {},
): DecisionInput {
  const ledger = new ToolCallLedger();
  ledger.record(over.ran ?? []);
  const { ran: _ran, tokens = 15, ...rest } = over;
  return {
    response: answer,
    finalPhase: false,
    schema: undefined,
    decodeRetries: 0,
    maxDecodeRetries: 2,
    policy,
    context: ledger.context(1, { promptTokens: tokens, completionTokens: 0 }),
    unavailableTools: new Set(),
    handoffTools: new Set(['transfer_to_billing', 'transfer_to_tech']),
    malformedAnswers: 0,
    maxMalformedAnswers: 3,
    ...rest,
  };
}

const interrupting: TerminationPolicy = {
  decide: () => ({ kind: 'interrupt', reason: 'a person must approve the refund' }),
};

const table: [string, DecisionInput, NextStep][] = [
  [
    'a text answer is the final output',
    input(response({ text: 'Done.' })),
    { kind: 'final_output', text: 'Done.' },
  ],
  [
    'a text answer cut by the length limit is still the answer',
    input(response({ text: 'Partial', finishReason: 'length' })),
    { kind: 'final_output', text: 'Partial' },
  ],
  [
    'with an output schema, the end of the tool phase asks for the structured answer',
    input(response({ text: 'I know.' }), { schema: Answer }),
    { kind: 'ask_final_output' },
  ],
  [
    'in the final phase, an answer that decodes is the final output, decoded',
    input(response({ text: '{"answer":"42"}' }), { schema: Answer, finalPhase: true }),
    { kind: 'final_output', text: '{"answer":"42"}', decoded: { value: { answer: '42' } } },
  ],
  [
    'in the final phase, an answer that does not decode is asked again',
    input(response({ text: '{"answer":42}' }), { schema: Answer, finalPhase: true }),
    {
      kind: 'retry_decode',
      problem:
        'the JSON does not match the schema: answer: Invalid input: expected string, received number',
    },
  ],
  [
    'when the decode retries are spent, the turn stops',
    input(response({ text: 'no json' }), { schema: Answer, finalPhase: true, decodeRetries: 2 }),
    {
      kind: 'stop',
      reason: 'output_decoding_failed',
      limit: { name: 'maxDecodeRetries', value: 2 },
      detail: `the final answer did not decode after 3 tries: the reply is not valid JSON (Unexpected token 'o', "no json" is not valid JSON)`,
    },
  ],
  [
    'tool calls run, whatever the finish reason',
    input(response({ toolCalls: [call('search')], finishReason: 'stop' })),
    { kind: 'run_tools', toolCalls: [call('search')], handoff: undefined, asked: [call('search')] },
  ],
  [
    'tools run first, then the first handoff; the other handoffs are ignored',
    input(
      response({
        toolCalls: [call('search'), call('transfer_to_billing'), call('transfer_to_tech')],
      }),
    ),
    {
      kind: 'run_tools',
      toolCalls: [call('search')],
      handoff: { call: call('transfer_to_billing'), ignored: [call('transfer_to_tech')] },
      asked: [call('search'), call('transfer_to_billing'), call('transfer_to_tech')],
    },
  ],
  [
    'asking again for a tool declared unavailable stops the turn degraded',
    input(response({ toolCalls: [call('inventory')] }), {
      unavailableTools: new Set(['inventory']),
    }),
    {
      kind: 'stop',
      reason: 'tool_failure_degraded',
      detail:
        "the LLM asked for tool 'inventory' again after it was declared unavailable, instead of answering without it",
    },
  ],
  [
    'the same call a third time stops the turn',
    input(response({ toolCalls: [call('search', { q: 'x' })] }), {
      ran: [call('search', { q: 'x' }), call('search', { q: 'x' })],
    }),
    {
      kind: 'stop',
      reason: 'duplicate_tool_call',
      limit: { name: 'maxDuplicateToolCalls', value: 2 },
      detail: expect.stringContaining("tool 'search'") as string,
    },
  ],
  [
    'a tool past its per-turn limit stops the turn',
    input(response({ toolCalls: [call('search', { q: 4 })] }), {
      ran: [call('search', { q: 1 }), call('search', { q: 2 }), call('search', { q: 3 })],
    }),
    {
      kind: 'stop',
      reason: 'tool_call_limit',
      limit: { name: 'maxToolCallsPerTool', value: 3 },
      detail: expect.stringContaining("tool 'search'") as string,
    },
  ],
  [
    'more tools past the token budget stop the turn',
    input(response({ toolCalls: [call('search')] }), { tokens: 150 }),
    {
      kind: 'stop',
      reason: 'budget_exceeded',
      limit: { name: 'maxTotalTokens', value: 100 },
      detail: expect.stringContaining('150') as string,
    },
  ],
  [
    'in ReAct mode, a malformed answer is told back while the limit allows',
    input(response({ text: 'I think.' }), {
      malformed: { message: 'Your answer has neither an Action nor a Final Answer.' },
      malformedAnswers: 3,
    }),
    { kind: 'retry_malformed', message: 'Your answer has neither an Action nor a Final Answer.' },
  ],
  [
    'in ReAct mode, one malformed answer past the limit stops the turn',
    input(response({ text: 'I think.' }), {
      malformed: { message: 'Your answer has neither an Action nor a Final Answer.' },
      malformedAnswers: 4,
    }),
    {
      kind: 'stop',
      reason: 'malformed_answer_limit',
      limit: { name: 'maxMalformedAnswers', value: 3 },
      detail:
        'the LLM gave 4 answers that were not ReAct steps; 3 allowed. The last: Your answer has neither an Action nor a Final Answer.',
    },
  ],
  [
    'a call that needs approval pauses the step before anything runs',
    input(response({ toolCalls: [call('lookup'), call('refund')] }), {
      checks: [
        pendingApprovalCheck([
          { callId: 'refund', toolName: 'refund', kind: 'tool', agent: 'desk', args: {} },
        ]),
      ],
    }),
    {
      kind: 'interrupt',
      reason: "'refund' (refund) needs a person's approval",
      approvals: {
        pending: [{ callId: 'refund', toolName: 'refund', kind: 'tool', agent: 'desk', args: {} }],
        step: {
          kind: 'run_tools',
          toolCalls: [call('lookup'), call('refund')],
          handoff: undefined,
          asked: [call('lookup'), call('refund')],
        },
      },
    },
  ],
  [
    'a handoff that is ignored is not waited for',
    input(response({ toolCalls: [call('transfer_to_billing'), call('transfer_to_tech')] }), {
      checks: [
        pendingApprovalCheck([
          {
            callId: 'transfer_to_tech',
            toolName: 'transfer_to_tech',
            kind: 'handoff',
            agent: 'desk',
            args: {},
          },
        ]),
      ],
    }),
    {
      kind: 'run_tools',
      toolCalls: [],
      handoff: { call: call('transfer_to_billing'), ignored: [call('transfer_to_tech')] },
      asked: [call('transfer_to_billing'), call('transfer_to_tech')],
    },
  ],
  [
    'a run past a cost limit runs no more tools, before any other check',
    input(response({ toolCalls: [call('refund')] }), {
      unavailableTools: new Set(['refund']),
      checks: [
        pendingApprovalCheck([
          { callId: 'refund', toolName: 'refund', kind: 'tool', agent: 'desk', args: {} },
        ]),
        overBudgetCheck({ name: 'maxCostUsd', limitUsd: 0.01, spentUsd: 0.02, shared: false }),
      ],
    }),
    {
      kind: 'stop',
      reason: 'budget_exceeded',
      limit: { name: 'maxCostUsd', value: 0.01 },
      detail: 'the run has spent $0.02 of maxCostUsd $0.01 and asked for more tools',
    },
  ],
  [
    'a tool declared unavailable ends the turn before an approval is asked for',
    input(response({ toolCalls: [call('refund')] }), {
      unavailableTools: new Set(['refund']),
      checks: [
        pendingApprovalCheck([
          { callId: 'refund', toolName: 'refund', kind: 'tool', agent: 'desk', args: {} },
        ]),
      ],
    }),
    {
      kind: 'stop',
      reason: 'tool_failure_degraded',
      detail:
        "the LLM asked for tool 'refund' again after it was declared unavailable, instead of answering without it",
    },
  ],
  [
    'a policy may pause the run to wait for something outside it',
    input(response({ toolCalls: [call('refund')] }), { policy: interrupting }),
    { kind: 'interrupt', reason: 'a person must approve the refund' },
  ],
];

describe('decideNextStep', () => {
  for (const [name, decisionInput, expected] of table) {
    it(name, () => {
      expect(decideNextStep(decisionInput)).toEqual(expected);
    });
  }

  it('the table covers every next step', () => {
    const kinds = new Set(table.map(([, , step]) => step.kind));
    expect([...kinds].sort()).toEqual(
      [
        'ask_final_output',
        'final_output',
        'interrupt',
        'retry_decode',
        'retry_malformed',
        'run_tools',
        'stop',
      ].sort(),
    );
  });
});

describe('the decisions around the model call', () => {
  it('stops before a model call past maxSteps', () => {
    expect(stepLimitStop(2, 3)).toBeUndefined();
    expect(stepLimitStop(3, 3)).toEqual({
      kind: 'stop',
      reason: 'max_steps',
      limit: { name: 'maxSteps', value: 3 },
      detail: 'the agent made 3 model calls and still asked for tools; 3 allowed',
    });
  });

  it('completes after the tools when a stopWhen condition holds', () => {
    const run = { steps: [], toolCalls: [], usage: { promptTokens: 0, completionTokens: 0 } };
    expect(stopConditionStop([() => false], run, 1)).toBeUndefined();
    expect(stopConditionStop([() => false, () => true], run, 4)).toEqual({
      kind: 'stop',
      reason: 'completed',
      detail: 'stopWhen condition 1 returned true after step 4',
    });
  });
});

/** Stop reasons decided here (the table above), and where the others come from. */
const decidedHere: readonly StopReason[] = [
  'completed',
  'max_steps',
  'duplicate_tool_call',
  'tool_call_limit',
  'budget_exceeded',
  'output_decoding_failed',
  'malformed_answer_limit',
  'tool_failure_degraded',
  'interrupted',
];
/** Decided by the effects, each tested where it happens (test/loop, test/scenarios). */
const decidedByEffects: Record<Exclude<StopReason, (typeof decidedHere)[number]>, string> = {
  guardrail_blocked: 'an input or output guardrail (runGuardrails)',
  handoff_depth_exceeded: 'the handoff (hand-off.ts)',
  handoff_cycle: 'the handoff (hand-off.ts)',
  aborted: 'the signal or a consumer that stops reading',
  timeout: "the run's timer",
  error: 'a model failure, or a router with no route',
  workflow_step_failed: 'a workflow run whose step failed (runWorkflow, test/workflow)',
  plan_refused: 'a planAndRun whose plans were all refused (test/workflow)',
};

it('every stop reason is either decided by the core or by a named effect', () => {
  expect([...decidedHere, ...Object.keys(decidedByEffects)].sort()).toEqual(
    [...stopReasons].sort(),
  );
});
