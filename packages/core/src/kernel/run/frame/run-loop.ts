import type { AnyAgent } from '../../agent/agent.js';
import type { Feature } from '../seam/feature.js';
import { ConfigurationError } from '../../errors/configuration-error.js';
import { recentMessages } from '../turn/recent-messages.js';
import type { Chunk } from '../../protocol/chunk.js';
import type { AgentOutcome, AgentStart, PausedTurn } from '../turn/agent-outcome.js';
import {
  RUN_STATE_FORMAT,
  RUN_STATE_VERSION,
  sealState,
  type RunStateBody,
  type RunStateSnapshot,
} from '../pause/run-snapshot.js';
import type { ApprovalDecision } from '../../protocol/approval.js';
import type { KernelOptions, ResumeOnceOptions } from './kernel-options.js';
import type { RunResult } from './run-result.js';
import type { RunState } from './run-state.js';
import { pausedRun } from './create-run-state.js';
import { conversationFields, forkedFromFields, historyFields, openRun } from './run-frame.js';
import { runAgent } from '../turn/run-agent.js';
import { resumedAgentStart } from '../pause/resumed-start.js';

/** What a run of an entry agent is given. */
export interface RunLoopInput<Options extends object> {
  readonly agent: AnyAgent;
  readonly input: string;
  readonly options: KernelOptions & Partial<ResumeOnceOptions> & Options;
  /** Whether the model is called in streaming mode (`stream`). */
  readonly streaming: boolean;
  /** The run's features, in the order their hooks are called. */
  readonly features: readonly Feature<Options>[];
  /** A paused run's opened state, and the decisions it goes on with. */
  readonly resumed?: {
    readonly state: RunStateSnapshot;
    readonly decisions: readonly ApprovalDecision[];
  };
}

/**
 * A whole run of an entry agent (or the resumed part of one): opens the run with `features`, runs
 * the agent's turn, seals the trace and gives the result, with a paused run's sealed state.
 */
export async function* runLoop<Options extends object>({
  agent,
  input,
  options,
  streaming,
  features,
  resumed,
}: RunLoopInput<Options>): AsyncGenerator<Chunk, RunResult<unknown>, undefined> {
  assertRunArguments(agent, input, options);
  resolveAgentGraph(agent);
  // Checked before the run opens: a state refused for its agent graph is not used up.
  const [first, start] =
    resumed === undefined
      ? [
          agent,
          { input, messages: options.history ?? [], path: [agent.name], runHistory: true as const },
        ]
      : resumedStart(agent, resumed.state, resumed.decisions);
  const {
    state,
    span: runSpan,
    close,
  } = await openRun(
    agent.name,
    options,
    {
      input,
      ...historyFields(options.history, options.conversation?.carried),
      ...forkedFromFields(options.forkedFrom),
      ...conversationFields(options.conversation),
    },
    { streaming, resumed: resumed?.state, features },
  );
  let outcome: AgentOutcome | undefined;
  try {
    const running = runAgent(first, start, runSpan, state);
    for (let next = await running.next(); ; next = await running.next()) {
      if (next.done === true) {
        outcome = next.value;
        break;
      }
      yield state.chunks.number(next.value);
    }
  } finally {
    await close(outcome);
  }
  const paused =
    outcome.paused === undefined
      ? undefined
      : await sealState(pausedBody(agent, input, state, outcome.paused), options.stateSecret);
  return runResult(agent, state, outcome, paused);
}

/** The agent a resumed run goes on with, found along the state's path, and how it starts. */
function resumedStart(
  entry: AnyAgent,
  state: RunStateSnapshot,
  decisions: readonly ApprovalDecision[],
): [AnyAgent, AgentStart] {
  // The path from the entry agent to the paused one is walked (and checked) by resumedAgentStart.
  if (state.run.entryAgent !== entry.name) {
    throw new ConfigurationError({
      option: 'agent',
      message: `The run state was made by a run of agent '${state.run.entryAgent}', not '${entry.name}': resume it with the same entry agent.`,
    });
  }
  return resumedAgentStart(entry, state.turn, decisions);
}

/** What the state of a paused run holds: the run's ids and totals, and the paused turn. */
function pausedBody(
  entry: AnyAgent,
  input: string,
  state: RunState,
  turn: PausedTurn,
): RunStateBody {
  return {
    format: RUN_STATE_FORMAT,
    version: RUN_STATE_VERSION,
    run: { ...pausedRun(state), input, entryAgent: entry.name },
    turn,
  };
}

function runResult(
  agent: AnyAgent,
  state: RunState,
  outcome: AgentOutcome,
  paused: RunStateSnapshot | undefined,
): RunResult<unknown> {
  return {
    output: outcome.decoded === undefined ? outcome.output : outcome.decoded.value,
    text: outcome.output,
    stopReason: outcome.stopReason,
    messages:
      agent.memory.maxItems === undefined
        ? outcome.conversation.messages
        : recentMessages(outcome.conversation.messages, agent.memory.maxItems),
    steps: state.steps,
    toolCalls: state.toolCalls,
    usage: state.totals.usage,
    runId: state.tracer.runId,
    agent: outcome.agentName,
    error: state.redaction === undefined ? outcome.error : state.redaction.error(outcome.error),
    limit: outcome.limit,
    detail: outcome.detail,
    degradedTools: outcome.degradedTools,
    guardrails: state.guardrailFindings,
    handoffs: state.handoffs,
    traceErrors: state.tracer.sinkErrors,
    interruptions: outcome.paused?.pending ?? [],
    state: paused,
  };
}

/** Resolves every handoff reachable from `entry`, so a misconfigured one fails before the run starts. */
function resolveAgentGraph(entry: AnyAgent): void {
  const seen = new Set<AnyAgent>([entry]);
  const pending = [entry];
  for (let agent = pending.pop(); agent !== undefined; agent = pending.pop()) {
    for (const { agent: target } of agent.handoffs()) {
      if (seen.has(target)) continue;
      seen.add(target);
      pending.push(target);
    }
  }
}

function assertRunArguments(agent: AnyAgent, input: string, options: KernelOptions): void {
  if (typeof agent !== 'object' || agent === null || !('toolRegistry' in agent)) {
    throw new ConfigurationError({
      option: 'agent',
      message: 'run() needs an agent made with agent({ name, model, ... }) as its first argument.',
    });
  }
  if (typeof input !== 'string') {
    throw new ConfigurationError({
      option: 'input',
      message: `run() needs the user's input as a string (actual: ${typeof input}).`,
    });
  }
  if (
    options.timeoutMs !== undefined &&
    !(Number.isFinite(options.timeoutMs) && options.timeoutMs > 0)
  ) {
    throw new ConfigurationError({
      option: 'timeoutMs',
      message: `Invalid timeoutMs: expected a number of milliseconds greater than 0 (actual: ${String(options.timeoutMs)}).`,
    });
  }
  if (typeof options !== 'object' || options === null) {
    throw new ConfigurationError({
      option: 'options',
      message: 'run() options must be an object, e.g. { trace: memorySink() }.',
    });
  }
  const carried = options.conversation?.carried;
  const most = options.history?.length ?? 0;
  if (carried !== undefined && !(Number.isInteger(carried) && carried >= 0 && carried <= most)) {
    throw new ConfigurationError({
      option: 'conversation.carried',
      message: `conversation.carried counts the first messages of history that the previous turn recorded: 0 to ${most} (actual: ${String(carried)}). conversation() sets it; leave it out otherwise.`,
    });
  }
}
