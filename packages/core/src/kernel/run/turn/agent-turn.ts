import { z } from 'zod';
import type { AnyAgent } from '../../agent/agent.js';
import { recentMessages } from './recent-messages.js';
import type { ModelRequest } from '../../model/language-model.js';
import type { StopLimit, StopReason } from '../../protocol/stop-reason.js';
import { addUsage, zeroUsage, type Usage } from '../../protocol/usage.js';
import type { OpenSpan, TraceEventFields } from '../../trace/run-tracer.js';
import type { AgentOutcome, AgentStart, PausedTurn } from './agent-outcome.js';
import { Conversation } from './conversation.js';
import { describeTools, preambleFor, type Preamble } from './preamble.js';
import type { RunState } from '../frame/run-state.js';
import type { Stop } from './next-step.js';
import { toTraceError } from '../frame/to-trace-error.js';
import { ToolCallLedger } from '../tools/tool-call-ledger.js';
import type { ToolCallingMode } from './tool-calling.js';
import type { Hooks } from '../seam/seam.js';
import { TurnContext } from '../seam/feature-context.js';
import { costSummary, emptyTally, type CostTally } from '../../protocol/cost-tally.js';
import { defined } from '../../util/defined.js';

/**
 * One agent's turn in a run: its conversation and span, what it may still offer the model, the
 * phase it is in, and how it ended. The loop's steps read and change it; `outcome()` is what the
 * turn gives back.
 */
export class AgentTurn {
  readonly conversation: Conversation;
  readonly agentSpan: OpenSpan;
  /** Where the run's input is in the conversation (memory windows keep it visible). */
  readonly inputIndex: number;
  readonly unavailableTools = new Set<string>();
  /** Native tool calls, or ReAct text. */
  readonly mode: ToolCallingMode;
  /** The hooks of the run's features that take part in this agent's turns. */
  readonly hooks: Hooks;
  /** What those hooks see of the turn. */
  readonly at: TurnContext;
  preamble: Preamble;
  readonly responseFormat: ModelRequest['responseFormat'];
  /** With an output schema: tools off, the structured answer asked for. */
  finalPhase: boolean;
  decodeRetries = 0;
  /** Malformed answers given so far (ReAct mode). */
  malformedAnswers = 0;
  structured: unknown;
  readonly ledger = new ToolCallLedger();
  /** Model calls made by this agent. */
  steps = 0;
  usage: Usage = zeroUsage;
  /** What this agent's model calls cost. */
  readonly cost: CostTally = emptyTally();
  output = '';
  stopReason: StopReason | undefined;
  error: Error | undefined;
  limit: StopLimit | undefined;
  detail: string | undefined;
  /** The outcome of the agent this turn handed off to, which is then this turn's outcome. */
  handedOff: AgentOutcome | undefined;

  constructor(
    readonly agent: AnyAgent,
    readonly start: AgentStart,
    parent: OpenSpan,
    readonly state: RunState,
  ) {
    this.conversation = new Conversation(state.redaction);
    this.mode = state.seam.toolCalling(agent);
    this.hooks = state.seam.forAgent(agent);
    const paused = start.resumed?.turn;
    const carried =
      paused !== undefined
        ? []
        : this.mode.carried(
            agent.memory.maxItems === undefined
              ? start.messages
              : recentMessages(start.messages, agent.memory.maxItems),
          );
    for (const message of paused?.messages ?? carried) this.conversation.append(message);
    // The run's history as given is in its run_start: requests record what follows it.
    if (start.runHistory === true && carried === start.messages && state.tracer.recording)
      this.conversation.startFromHistory();
    if (start.input !== undefined) this.conversation.append({ role: 'user', content: start.input });
    this.inputIndex =
      paused?.inputIndex ??
      this.conversation.messages.findLastIndex(message => message.role === 'user');

    // Nothing is unavailable yet: the preamble's tools are all the agent offers.
    this.preamble = preambleFor(agent, this.unavailableTools, this.mode);
    this.agentSpan = state.tracer.start(
      'agent_start',
      agent.name,
      parent,
      startFields(this, carried.length),
    );
    state.describedAgents.add(agent.name);
    this.at = new TurnContext(agent, state, this.agentSpan, () => this.steps);
    this.responseFormat =
      agent.output === undefined
        ? undefined
        : {
            name: `${agent.name}_output`,
            schema: z.toJSONSchema(agent.output, { unrepresentable: 'any' }) as Record<
              string,
              unknown
            >,
          };
    // With tools, the schema is only sent once the LLM ends its turn (the final-output phase):
    // asking for JSON while tools are offered makes models answer too early.
    this.finalPhase = agent.output !== undefined && this.preamble.tools.length === 0;
    if (paused !== undefined) this.#restore(paused);
  }

  /** Set when the turn paused for approvals. */
  paused: PausedTurn | undefined;

  /** Takes the counters of a paused turn (a resumed run). */
  #restore(paused: PausedTurn): void {
    this.steps = paused.steps;
    this.decodeRetries = paused.decodeRetries;
    this.malformedAnswers = paused.malformedAnswers;
    this.finalPhase = paused.finalPhase;
    this.ledger.restore(paused.ledger);
    for (const name of paused.unavailableTools) this.unavailableTools.add(name);
    this.preamble = preambleFor(this.agent, this.unavailableTools, this.mode);
    // The conversation so far was shown to the model before the pause.
    this.conversation.markSent();
  }

  /** The turn as a resumed run needs it, paused on `step` for `pending` approvals. */
  pause(
    pending: PausedTurn['pending'],
    step: PausedTurn['step'],
    stepIndex: number,
    more: Pick<PausedTurn, 'thought' | 'delegate'> = {},
  ): PausedTurn {
    this.paused = {
      agent: this.agent.name,
      path: this.start.path,
      messages: [...this.conversation.messages],
      inputIndex: this.inputIndex,
      steps: this.steps,
      decodeRetries: this.decodeRetries,
      malformedAnswers: this.malformedAnswers,
      unavailableTools: [...this.unavailableTools],
      finalPhase: this.finalPhase,
      ledger: this.ledger.snapshot(),
      pending,
      step,
      stepIndex,
      ...(more.thought === undefined || more.thought === '' ? {} : { thought: more.thought }),
      ...defined('delegate', more.delegate),
    };
    return this.paused;
  }

  #handoffTools: ReadonlySet<string> | undefined;
  /** The tool names that are the agent's handoffs. */
  get handoffTools(): ReadonlySet<string> {
    this.#handoffTools ??= new Set(this.agent.handoffs().map(handoff => handoff.toolName));
    return this.#handoffTools;
  }

  get stopped(): boolean {
    return this.stopReason !== undefined;
  }

  /** Ends the turn with `stop`. */
  stop({ reason, detail, limit }: Omit<Stop, 'kind'>): void {
    this.stopReason = reason;
    this.detail = detail;
    if (limit !== undefined) this.limit = limit;
  }

  /** Counts a model call's usage for the agent and the run. */
  addUsage(usage: Usage): void {
    this.usage = addUsage(this.usage, usage);
    this.state.totals.usage = addUsage(this.state.totals.usage, usage);
  }

  /** The fields of the turn's `agent_end`. */
  endFields(): Omit<TraceEventFields<'agent_end'>, 'duration_ms'> {
    return {
      stop_reason: this.stopReason ?? 'aborted',
      steps: this.steps,
      tool_calls: this.ledger.total,
      tok_prompt: this.usage.promptTokens,
      tok_completion: this.usage.completionTokens,
      output: this.output,
      ...(this.error === undefined ? {} : { error: toTraceError(this.error) }),
      ...defined('limit', this.limit),
      ...defined('detail', this.detail),
      ...(this.unavailableTools.size === 0 ? {} : { degraded_tools: [...this.unavailableTools] }),
      ...(this.handedOff === undefined ? {} : { handed_off_to: this.handedOff.agentName }),
      // A cost stop says what was spent, $0 before any call.
      ...(this.cost.usd === 0 &&
      this.cost.unpricedCalls === 0 &&
      this.stopReason !== 'budget_exceeded'
        ? {}
        : { cost: costSummary(this.cost) }),
    };
  }

  /** What the turn gives back: its own outcome, or that of the agent it handed off to. */
  outcome(): AgentOutcome {
    if (this.handedOff !== undefined) return this.handedOff;
    return {
      stopReason: this.stopReason ?? 'aborted',
      output: this.output,
      error: this.error,
      conversation: this.conversation,
      limit: this.limit,
      detail: this.detail,
      degradedTools: [...this.unavailableTools],
      decoded: this.agent.output === undefined ? undefined : { value: this.structured },
      agentName: this.agent.name,
      ...defined('paused', this.paused),
    };
  }
}

function startFields(turn: AgentTurn, carried: number): TraceEventFields<'agent_start'> {
  const { agent, start, state } = turn;
  const handoffs = agent.handoffs();
  return {
    model: agent.model.modelId,
    provider: agent.model.provider,
    instructions: agent.instructions,
    ...(agent.description === '' ? {} : { description: agent.description }),
    ...defined('version', agent.version),
    tools: agent.toolRegistry.definitions.map(definition => definition.name),
    ...(handoffs.length === 0 ? {} : { handoffs: handoffs.map(handoff => handoff.agent.name) }),
    ...(start.path.length > 1 ? { path: [...start.path] } : {}),
    max_steps: agent.limits.maxSteps,
    ...(carried === 0 ? {} : { history_messages: carried }),
    ...defined('memory_window', agent.memory.window),
    ...(agent.toolCalling === 'react' ? { tool_calling: 'react' as const } : {}),
    ...(state.tracer.recording && !state.describedAgents.has(agent.name)
      ? { tool_definitions: describeTools(turn.preamble, agent) }
      : {}),
  };
}
