import { z } from 'zod';
import { ConfigurationError } from '../errors/configuration-error.js';
import { isLanguageModel, type LanguageModel } from '../model/language-model.js';
import { checkFeatureOptions } from './agent-option-checks.js';
import { nonNegative, positiveInteger } from './option-numbers.js';
import { isHandoff, resolveHandoff, type Handoff } from './handoff.js';
import { createTerminationPolicy } from '../termination/create-termination-policy.js';
import type { StopCondition } from '../termination/stop-condition.js';
import type { TerminationPolicy } from '../termination/termination-policy.js';
import { agentAsTool } from './as-tool.js';
import type {
  Agent,
  AgentFeatureOptions,
  AnyAgent,
  ResolvedAgentLimits,
  ResolvedHandoff,
  ResolvedResilience,
  ToolCalling,
} from './agent-types.js';
import type { RouterSpec } from './router.js';
import type { AnyTool } from '../tool/tool.js';
import { ToolRegistry } from '../tool/tool-registry.js';
import { defaults } from '../util/defaults.js';

export type {
  Agent,
  AgentFeatureOptions,
  AnyAgent,
  ResolvedAgentLimits,
  ResolvedResilience,
  ToolCalling,
} from './agent-types.js';

/** Bounds on what one agent may do in a run. */
export interface AgentLimits {
  /**
   * Model calls the agent may make before the run stops with `max_steps`. The tool calls of the
   * last allowed step still run.
   * @defaultValue 10
   */
  maxSteps?: number;
  /**
   * Times one call — same tool, same arguments (compared as canonical JSON) — may run. Asking for
   * it once more stops the run with `duplicate_tool_call`.
   * @defaultValue 2
   */
  maxDuplicateToolCalls?: number;
  /**
   * Times one tool may run in the agent's turn. Asking for it once more stops the run with
   * `tool_call_limit`.
   * @defaultValue 5
   */
  maxToolCallsPerTool?: number;
  /**
   * Tokens (prompt + completion) the run may use. Past it, the run stops with `budget_exceeded`
   * instead of running more tools; a final answer that crosses it is still returned.
   * @defaultValue no budget
   */
  maxTotalTokens?: number;
  /**
   * How long one model call may take, in milliseconds; past it the call fails with a retryable
   * timeout. @defaultValue no timeout
   */
  modelTimeoutMs?: number;
  /**
   * How long a streamed model answer may go silent, in milliseconds, before the call fails as a
   * retryable `stream_interrupted` (and its request is cancelled). `false` turns the watch off.
   * @defaultValue 120000
   */
  streamIdleTimeoutMs?: number | false;
  /**
   * With an `output` schema: how many times the LLM is asked again, told what was wrong, when its
   * final answer does not decode; then the run stops with `output_decoding_failed`.
   * @defaultValue 2
   */
  maxDecodeRetries?: number;
  /**
   * With `toolCalling: 'react'`: malformed answers (no Action, an unknown tool, an Action Input
   * that is not JSON, …) the agent may give in its turn, each told back to the LLM with what was
   * wrong. One more stops the run with `malformed_answer_limit`.
   * @defaultValue 3
   */
  maxMalformedAnswers?: number;
  /**
   * Handoffs in a row a conversation may go through (A → B → C is 2). A handoff past it stops the
   * run with `handoff_depth_exceeded`.
   * @defaultValue 3
   */
  maxHandoffDepth?: number;
}

/** How failures of model calls and tools are retried. */
export interface RetryOptions {
  /**
   * Attempts per model call, the first included, for retryable failures (408, 429, 5xx, timeouts,
   * a cut stream). Then the fallback model, if any, gets as many.
   * @defaultValue 3
   */
  modelAttempts?: number;
  /** The wait before the first retry (then doubled each time, with jitter). @defaultValue 500 */
  baseDelayMs?: number;
  /** The longest wait before jitter; a provider's `retry-after` is honoured as given. @defaultValue 30000 */
  maxDelayMs?: number;
  /**
   * Retries of a tool whose execution fails (a throw or a timeout). After them the tool is
   * unavailable for the rest of the agent's turn and the LLM is told to answer without it.
   * @defaultValue 2
   */
  toolRetries?: number;
}

/** How much conversation an agent keeps and shows its model. */
export interface MemoryOptions {
  /**
   * The most recent messages each model call sees; the run's input is always shown, and a tool call
   * is never separated from its results. @defaultValue everything
   */
  window?: number;
  /**
   * The most messages carried: `history` passed to `run` is cut to its last `maxItems` before the
   * run, and `result.messages` after it (pairs kept whole). @defaultValue everything
   */
  maxItems?: number;
}

/** Options of {@link agent}. */
export interface AgentOptions<Output = string> extends AgentFeatureOptions {
  /** Unique within a graph of agents; shown in every chunk and trace event of the agent. */
  name: string;
  /** The system prompt. @defaultValue '' */
  instructions?: string;
  /** What the agent is for: shown to routers and in traces. @defaultValue '' */
  description?: string;
  /** The agent's version, as the application names it (`2026-11`, a git tag): in traces. */
  version?: string;
  model: LanguageModel;
  /** @defaultValue [] */
  tools?: readonly AnyTool[];
  /**
   * How the agent offers its tools (and handoffs) to the model: as the provider's native tool
   * definitions, or, for models without tool calling, in ReAct text. In `react` mode the tools are
   * described in the instructions, no tool definitions are sent, each answer is read as
   * `Thought:` / `Action:` / `Action Input:` or `Final Answer:`, an action runs as a tool call
   * (same checks, limits, retries and trace events as a native one), and its result goes back as
   * an `Observation:` message. `\nObservation:` is sent as a stop sequence where the provider
   * takes one. A malformed answer is told back, up to `limits.maxMalformedAnswers`.
   * @defaultValue 'native'
   */
  toolCalling?: ToolCalling;
  limits?: AgentLimits;
  /** Conditions checked after every step; the first that returns true ends the run (`completed`). */
  stopWhen?: StopCondition | readonly StopCondition[];
  /**
   * Decides after each model response whether to run its tools, finish or stop. Replaces the
   * default: the standard policy with the duplicate-call detector, the per-tool limit and the
   * token budget of `limits`.
   */
  terminationPolicy?: TerminationPolicy;
  /**
   * The model to use when the main one keeps failing (retryable failures past
   * `retry.modelAttempts`, or an open circuit).
   */
  fallbackModel?: LanguageModel;
  retry?: RetryOptions;
  /** How much of the conversation is kept and shown to the model. @defaultValue everything */
  memory?: MemoryOptions;
  /**
   * Agents this one may hand the conversation over to, offered to the LLM as `transfer_to_<name>`
   * tools: agents, `handoff(agent, options)`, or functions returning an agent (for cycles).
   * @defaultValue none
   */
  handoffs?: readonly (AnyAgent | Handoff | (() => AnyAgent))[];
  /**
   * What to do when the LLM hands off to an agent already on the current handoff path (A → B → A):
   * stop the run with `handoff_cycle`, or refuse the handoff and tell the LLM to answer itself.
   * @defaultValue 'stop'
   */
  onHandoffCycle?: 'stop' | 'refuse';
  /** Makes the agent a router: see `ruleRouter` and `modelRouter`. @internal */
  router?: RouterSpec;
  /**
   * A zod schema for the final answer (structured output). While tools are offered the schema is
   * not sent; when the LLM ends its turn it is asked for the answer as JSON with tools off, and
   * the answer is decoded and validated (retried up to `limits.maxDecodeRetries`). `result.output`
   * is then the decoded value. @defaultValue plain text
   */
  output?: z.ZodType<Output>;
}

const agentNamePattern = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Defines an agent. Misconfiguration (a missing model, duplicate tool names, a bad limit) throws
 * a {@link ConfigurationError} here, not in the middle of a run.
 */
export function agent<Output = string>(options: AgentOptions<Output>): Agent<Output> {
  const { name, instructions = '', model, tools = [], limits = {}, stopWhen = [] } = options;
  if (typeof name !== 'string' || !agentNamePattern.test(name)) {
    throw new ConfigurationError({
      option: 'name',
      message: `Invalid agent name ${JSON.stringify(name)}: use letters, digits, '_' and '-' (1 to 64 characters), e.g. 'billing'.`,
    });
  }
  if (!isLanguageModel(model)) {
    throw new ConfigurationError({
      option: 'model',
      message: `Agent '${name}' has no usable model: 'model' must be a LanguageModel such as openai('gpt-4o-mini') or fakeLLM([...]).`,
    });
  }
  const resolved = resolveLimits(name, limits);
  if (options.output !== undefined && !(options.output instanceof z.ZodType)) {
    throw new ConfigurationError({
      option: 'output',
      message: `Invalid output for agent '${name}': expected a zod schema such as z.object({ answer: z.string() }).`,
    });
  }
  const { fallbackModel, retry = {} } = options;
  if (fallbackModel !== undefined && !isLanguageModel(fallbackModel)) {
    throw new ConfigurationError({
      option: 'fallbackModel',
      message: `Agent '${name}' has an unusable fallbackModel: it must be a LanguageModel such as openai('gpt-4o-mini').`,
    });
  }
  const resilience = resolveResilience(name, retry);
  const toolCalling = resolveToolCalling(name, options.toolCalling);
  const conditions = resolveStopWhen(name, stopWhen);
  const handoffs = lazyHandoffs(name, options.handoffs ?? [], tools);
  // Resolve now unless a target is given as a function (agents that hand off to each other):
  // a misconfigured handoff then fails here, not in the middle of a run.
  if (
    !(options.handoffs ?? []).some(
      entry =>
        typeof entry === 'function' || (isHandoff(entry) && typeof entry.target === 'function'),
    )
  ) {
    handoffs();
  }
  const made: Agent<Output> = {
    name,
    instructions,
    description: options.description ?? '',
    version: options.version,
    router: options.router,
    model,
    tools,
    toolCalling,
    limits: resolved,
    stopWhen: conditions,
    terminationPolicy: options.terminationPolicy ?? createTerminationPolicy(resolved),
    fallbackModel,
    resilience,
    featureOptions: featureOptionsOf(name, options),
    output: options.output,
    handoffs,
    onHandoffCycle: options.onHandoffCycle ?? 'stop',
    asTool: asToolOptions => agentAsTool(made, asToolOptions),
    memory: resolveMemory(name, options.memory),
    toolRegistry: new ToolRegistry(tools, { owner: name }),
  };
  return made;
}

/** The agent's limits, checked, with the defaults filled in. */
function resolveLimits(name: string, limits: AgentLimits): ResolvedAgentLimits {
  return Object.freeze({
    maxSteps: positiveInteger(name, 'maxSteps', limits.maxSteps ?? defaults.maxSteps),
    maxDuplicateToolCalls: positiveInteger(
      name,
      'maxDuplicateToolCalls',
      limits.maxDuplicateToolCalls ?? defaults.maxDuplicateToolCalls,
    ),
    maxToolCallsPerTool: positiveInteger(
      name,
      'maxToolCallsPerTool',
      limits.maxToolCallsPerTool ?? defaults.maxToolCallsPerTool,
    ),
    maxTotalTokens:
      limits.maxTotalTokens === undefined
        ? undefined
        : positiveInteger(name, 'maxTotalTokens', limits.maxTotalTokens),
    modelTimeoutMs:
      limits.modelTimeoutMs === undefined
        ? undefined
        : positiveInteger(name, 'modelTimeoutMs', limits.modelTimeoutMs),
    streamIdleTimeoutMs:
      limits.streamIdleTimeoutMs === false
        ? undefined
        : positiveInteger(
            name,
            'streamIdleTimeoutMs',
            limits.streamIdleTimeoutMs ?? defaults.streamIdleTimeoutMs,
          ),
    maxDecodeRetries: nonNegative(
      name,
      'maxDecodeRetries',
      limits.maxDecodeRetries ?? defaults.maxDecodeRetries,
      'limits',
    ),
    maxMalformedAnswers: nonNegative(
      name,
      'maxMalformedAnswers',
      limits.maxMalformedAnswers ?? defaults.maxMalformedAnswers,
      'limits',
    ),
    maxHandoffDepth: positiveInteger(
      name,
      'maxHandoffDepth',
      limits.maxHandoffDepth ?? defaults.maxHandoffDepth,
    ),
  });
}

/** The agent's retries and circuit breaker, checked, with the defaults filled in. */
function resolveResilience(
  name: string,
  retry: NonNullable<AgentOptions<unknown>['retry']>,
): ResolvedResilience {
  return Object.freeze({
    modelAttempts: positiveInteger(
      name,
      'modelAttempts',
      retry.modelAttempts ?? defaults.modelAttempts,
      'retry',
    ),
    baseDelayMs: nonNegative(name, 'baseDelayMs', retry.baseDelayMs ?? defaults.retryBaseDelayMs),
    maxDelayMs: nonNegative(name, 'maxDelayMs', retry.maxDelayMs ?? defaults.retryMaxDelayMs),
    toolRetries: nonNegative(name, 'toolRetries', retry.toolRetries ?? defaults.toolRetries),
  });
}

/** How the agent calls tools: natively (the default) or in ReAct text. */
function resolveToolCalling(
  name: string,
  toolCalling: AgentOptions<unknown>['toolCalling'] = 'native',
): NonNullable<AgentOptions<unknown>['toolCalling']> {
  if (toolCalling !== 'native' && toolCalling !== 'react') {
    throw new ConfigurationError({
      option: 'toolCalling',
      message: `Invalid toolCalling for agent '${name}': expected 'native' or 'react' (actual: ${JSON.stringify(toolCalling)}).`,
    });
  }
  return toolCalling;
}

/** The agent's stop conditions, as a list of functions. */
function resolveStopWhen(
  name: string,
  stopWhen: NonNullable<AgentOptions<unknown>['stopWhen']>,
): StopCondition[] {
  const conditions = typeof stopWhen === 'function' ? [stopWhen] : [...stopWhen];
  if (!conditions.every(condition => typeof condition === 'function')) {
    throw new ConfigurationError({
      option: 'stopWhen',
      message: `Invalid stopWhen for agent '${name}': expected a function (state) => boolean or an array of them.`,
    });
  }
  return conditions;
}

/** The agent's memory window and size, checked. */
function resolveMemory(name: string, memory: AgentOptions<unknown>['memory']): Agent['memory'] {
  return Object.freeze({
    window:
      memory?.window === undefined
        ? undefined
        : positiveInteger(name, 'window', memory.window, 'memory'),
    maxItems:
      memory?.maxItems === undefined
        ? undefined
        : positiveInteger(name, 'maxItems', memory.maxItems, 'memory'),
  });
}

function lazyHandoffs(
  owner: string,
  entries: readonly (AnyAgent | Handoff | (() => AnyAgent))[],
  tools: readonly AnyTool[],
): () => readonly ResolvedHandoff[] {
  let resolved: readonly ResolvedHandoff[] | undefined;
  return () => {
    if (resolved !== undefined) return resolved;
    const list = entries.map(entry => resolveHandoff(entry, owner));
    const taken = new Set(tools.map(tool => tool.name));
    for (const handoff of list) {
      if (taken.has(handoff.toolName)) {
        throw new ConfigurationError({
          option: 'handoffs',
          message: `Agent '${owner}' offers '${handoff.toolName}' twice (a tool or another handoff has that name). Rename the tool, or pass handoff(agent, { toolName }).`,
        });
      }
      taken.add(handoff.toolName);
    }
    resolved = list;
    return resolved;
  };
}

/** The options of `agent()` that the kernel does not read: the features' own. */
const kernelOptions = new Set([
  'name',
  'instructions',
  'description',
  'version',
  'model',
  'tools',
  'toolCalling',
  'limits',
  'stopWhen',
  'terminationPolicy',
  'fallbackModel',
  'retry',
  'memory',
  'handoffs',
  'onHandoffCycle',
  'router',
  'output',
]);

/** The features' per-agent options, each checked by its feature. */
function featureOptionsOf(name: string, options: object): Readonly<AgentFeatureOptions> {
  const own = Object.fromEntries(
    Object.entries(options).filter(([key]) => !kernelOptions.has(key)),
  );
  checkFeatureOptions(name, own);
  return Object.freeze(own);
}
