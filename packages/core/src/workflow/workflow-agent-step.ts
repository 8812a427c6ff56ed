import type { ApprovalDecision } from '../kernel/protocol/approval.js';
import { RunAbortedError } from '../kernel/errors/abort-error.js';
import type { OpenSpan } from '../kernel/trace/run-tracer.js';
import type { Workflow, WorkflowStep } from './workflow.js';
import {
  turnToEnd,
  type AgentStart,
  type PausedTurn,
  resumedAgentStart,
  type RunState,
} from '../kernel/run/frame/runner-api.js';

/** Why a step's attempt failed, as its record and trace say. */
export type StepError = { readonly type: string; readonly message: string };

/**
 * How one attempt of a step's tool or agent ended: an output, a failure, or (an agent step) a
 * pause for a person's approval, with the agent's paused turn.
 */
export type Outcome =
  | { readonly ok: true; readonly output: unknown }
  | { readonly ok: false; readonly error: StepError; readonly paused?: PausedTurn };

/** What an attempt runs in. */
export interface AttemptOptions {
  readonly callId: string;
  readonly attempt: number;
  readonly span: OpenSpan;
  readonly state: RunState;
  readonly workflow: Workflow;
  /** An agent step that paused, going on: its paused turn and the decisions on its calls. */
  readonly resumed?: AgentStepResume;
}

/** An agent step that paused, as a resumed workflow run goes on with it. */
export interface AgentStepResume {
  readonly turn: PausedTurn;
  readonly decisions: readonly ApprovalDecision[];
  /** The attempt that paused: the resumed part goes on as the same attempt. */
  readonly attempt: number;
}

/**
 * One run of an agent step's agent on its input under the step's span, or, resumed, its paused
 * turn going on with the people's decisions. A turn that asks for approval pauses the step: the
 * outcome carries the paused turn.
 */
export async function agentAttempt(
  step: WorkflowStep,
  item: unknown,
  signal: AbortSignal | undefined,
  { span, state, resumed }: AttemptOptions,
): Promise<Outcome> {
  if (step.runs.kind !== 'agent') throw new TypeError('not an agent step');
  const { agent } = step.runs;
  const input = typeof item === 'string' ? item : JSON.stringify(item, null, 2);
  const [runs, start]: [typeof agent, AgentStart] =
    resumed === undefined
      ? [agent, { input, messages: [], path: [agent.name] }]
      : resumedAgentStart(agent, resumed.turn, resumed.decisions);
  const outcome = await turnToEnd(runs, start, span, { ...state, signal });
  if (signal?.aborted === true) throw new RunAbortedError({ reason: signal.reason });
  if (outcome.paused !== undefined)
    return {
      ok: false,
      paused: outcome.paused,
      error: {
        type: 'awaiting_approval',
        message: `agent '${outcome.paused.agent}' waits for approval of ${outcome.paused.pending.map(pending => `'${pending.toolName}' (${pending.callId})`).join(', ')}`,
      },
    };
  if (outcome.stopReason !== 'completed')
    return {
      ok: false,
      error: {
        type: outcome.stopReason,
        message: `agent '${agent.name}' stopped with ${outcome.stopReason}${outcome.detail === undefined ? '' : `: ${outcome.detail}`}`,
      },
    };
  return {
    ok: true,
    output: outcome.decoded === undefined ? outcome.output : outcome.decoded.value,
  };
}
