import { z } from 'zod';
import { finishReasons } from './finish-reason.js';
import { malformedAnswerProblems } from './malformed-answer.js';
import { stopReasons } from './stop-reason.js';
import { TraceReasoningPart } from './reasoning.js';

export { isSpanEnd, isSpanStart, spanEndFor, type SpanStartName } from './span-kinds.js';
export {
  SUPPORTED_TRACE_SCHEMA_VERSIONS,
  TRACE_SCHEMA_VERSION,
  TraceError,
} from './trace-envelope.js';
import { envelope, TraceError } from './trace-envelope.js';
import { SpanEndEvent, SpanStartEvent } from './plain-span-events.js';
import { FeatureEvent, TransformEvent } from './feature-trace-events.js';
import { EvaluationEvent } from './evaluation-event.js';
import { FeedbackEvent } from './feedback-event.js';
import {
  PlanEvent,
  WorkflowEndEvent,
  WorkflowStartEvent,
  WorkflowStepEndEvent,
  WorkflowStepStartEvent,
} from './workflow-trace-events.js';

/** A conversation message as `llm_start` records it. */
export const TraceMessage = z.discriminatedUnion('role', [
  z.object({ role: z.literal('user'), content: z.string() }),
  z.object({
    role: z.literal('assistant'),
    content: z.string(),
    tool_calls: z.array(z.object({ call_id: z.string(), tool: z.string(), arguments: z.string() })),
    /** What the model thought before this answer (its `llm_end`'s `reasoning`), sent back. */
    reasoning: z.array(TraceReasoningPart).optional(),
  }),
  z.object({
    role: z.literal('tool'),
    call_id: z.string(),
    tool: z.string(),
    content: z.string(),
    is_error: z.boolean(),
  }),
]);
export type TraceMessage = z.infer<typeof TraceMessage>;

const tokens = {
  tok_prompt: z.number().int().nonnegative(),
  tok_completion: z.number().int().nonnegative(),
};

const stopReason = z.enum(stopReasons as [string, ...string[]]);

/**
 * What the model calls of an agent or a run cost, in US dollars: the priced calls' sum, and the
 * calls of models with no price (their cost is unknown, not zero).
 */
const costSummary = z.object({
  usd: z.number().nonnegative(),
  unpriced_calls: z.number().int().nonnegative(),
  /** The models with no price, `provider/model`. */
  unpriced_models: z.array(z.string()).optional(),
});

/** The limit that stopped a run and what happened, on `agent_end` and `run_end`. */
const stopExplanation = {
  limit: z
    .object({
      name: z.string(),
      value: z.number(),
      /** How much of it was used then, where more than the run's own (a shared budget). */
      spent: z.number().optional(),
    })
    .optional(),
  /** Why it stopped, for people, e.g. "the LLM asked for tool 'search' … a 3rd time". */
  detail: z.string().optional(),
  /** Tools declared unavailable after failing: the run went on degraded without them. */
  degraded_tools: z.array(z.string()).optional(),
};

const RunStartEvent = z.object({
  ...envelope,
  event: z.literal('run_start'),
  input: z.string(),
  /**
   * The conversation the run started from (its `history`, as given, before an agent's memory
   * window): what a rerun starts from again. Absent when the run started afresh.
   */
  history: z.array(TraceMessage).optional(),
  /** The run's deadline (its `timeoutMs`), when it has one: a rerun decides it again from this. */
  timeout_ms: z.number().positive().optional(),
  /**
   * The release of the application that made the run, as it names it (its `release` option: a git
   * commit, a tag, a build): where the run came from. A rerun never compares it.
   */
  release: z.string().min(1).max(200).optional(),
  /**
   * Set when the run goes on from a pause (`resume`): the seq of the `run_end` that paused it. The
   * run keeps its id and its seq runs on, so both parts read as one run.
   */
  resumed: z
    .object({
      after_seq: z.number().int().nonnegative(),
      /** The id of the state it went on from: a state is used once. */
      state_id: z.string().optional(),
    })
    .optional(),
  /**
   * Set on a run forked from a recorded one (time travel): the recorded run, the model call after
   * which answers came from elsewhere, and that call's `llm_end` seq in the recording.
   */
  forked_from: z
    .object({
      run: z.string(),
      after_step: z.number().int().nonnegative(),
      seq: z.number().int().nonnegative().optional(),
    })
    .optional(),
  /**
   * Set on a run that is a turn of a conversation (`conversation()`): the conversation's id (also
   * the run's session) and the turn's 1-based index. Its `history` is what the earlier turns left.
   */
  conversation: z
    .object({
      id: z.string().min(1),
      turn: z.number().int().positive(),
      /**
       * `user`: the run is a simulated user's reply before the turn (its model calls), not one of
       * the agent's turns; a rerun of the conversation replays what it said.
       */
      role: z.literal('user').optional(),
      /**
       * Set on a turn whose history goes on from its previous turn's (turn − 1 of the same
       * conversation, earlier in the trace): the whole history is that turn's first `carried`
       * messages, then this turn's `history`, which holds only what is new. So a conversation's
       * trace grows with its turns, not with their square. Readers resolve it (`RunHistories`).
       */
      carried: z.number().int().nonnegative().optional(),
    })
    .optional(),
});

/** The MCP server a tool is served by, and over what. */
const mcpServer = z.object({ name: z.string(), transport: z.string() }).optional();

const AgentStartEvent = z.object({
  ...envelope,
  event: z.literal('agent_start'),
  model: z.string(),
  provider: z.string(),
  instructions: z.string(),
  /** What the agent is for (its `description`), when it has one. */
  description: z.string().optional(),
  /** The agent's version, when the application gives one. */
  version: z.string().optional(),
  tools: z.array(z.string()),
  /**
   * Model calls it may make. Absent when the agent's framework does not say (an agent recorded
   * through a bridge, whose stop conditions are functions).
   */
  max_steps: z.number().int().positive().optional(),
  /** The agents it may hand off to. */
  handoffs: z.array(z.string()).optional(),
  /** The agents the conversation passed through to get here (from the entry agent), this one last. */
  path: z.array(z.string()).optional(),
  /** Messages carried over from earlier runs (`history`). */
  history_messages: z.number().int().positive().optional(),
  /**
   * The tools offered to the model (handoffs included), with descriptions and JSON Schemas: on the
   * agent's first start in the run only, so a replay can say which definition changed.
   */
  tool_definitions: z
    .array(
      z.object({
        name: z.string(),
        description: z.string(),
        parameters: z.unknown(),
        /** The MCP server that lists the tool: what a rerun with the server gone offers instead. */
        mcp_server: mcpServer,
      }),
    )
    .optional(),
  /** The memory window: the most recent messages each model call sees. */
  memory_window: z.number().int().positive().optional(),
  /** Set when the agent asks for tools in ReAct text instead of native tool calls. */
  tool_calling: z.enum(['react']).optional(),
});

const LlmStartEvent = z.object({
  ...envelope,
  event: z.literal('llm_start'),
  model: z.string(),
  provider: z.string(),
  /** 1-based model call number within the agent. */
  step: z.number().int().positive(),
  /** What is new in the request since this agent's previous model call (see `from_history`). */
  messages: z.array(TraceMessage),
  /**
   * Set when a feature rewrote what the model was sent (a `model` hook's wrapper) so that earlier
   * messages differ: the request keeps this many of the messages the trace held for the agent's
   * conversation, and `messages` follow them.
   */
  kept: z.number().int().nonnegative().optional(),
  /**
   * Set on the entry agent's first request of a run that has a history: the trace holds the
   * history already (`run_start.history`, resolved), so `messages` are what follow its first
   * `from_history` messages, not the whole request.
   */
  from_history: z.number().int().positive().optional(),
  /** How many messages the whole request holds. */
  message_count: z.number().int().nonnegative(),
  /** A hash of the whole request: instructions, tool definitions and every message. */
  request_hash: z.string(),
  /** A hash of each part of the request, so a replay can say which part changed. */
  request_parts: z
    .object({
      instructions: z.string(),
      tools: z.string(),
      messages: z.string(),
      /** The output schema asked for in the final-output phase. */
      response_format: z.string().optional(),
    })
    .optional(),
  /** The model's settings that change its answers (`LanguageModel.settings`), when it has any. */
  model_settings: z.record(z.string(), z.unknown()).optional(),
  /** The attempt of this model call: absent for a first attempt on the agent's own model. */
  attempt: z.number().int().positive().optional(),
  /** Set when the call was streamed. */
  stream: z.literal(true).optional(),
  /** The host and port the request went to, for a model served over the network. */
  server: z.object({ address: z.string(), port: z.number().int().positive() }).optional(),
  /** `final_output` when the call asks for the structured answer (tools off, schema on). */
  phase: z.enum(['final_output']).optional(),
});

const LlmEndEvent = z.object({
  ...envelope,
  event: z.literal('llm_end'),
  model: z.string(),
  provider: z.string(),
  step: z.number().int().positive(),
  attempt: z.number().int().positive().optional(),
  text: z.string().optional(),
  tool_calls: z
    .array(z.object({ call_id: z.string(), tool: z.string(), arguments: z.string() }))
    .optional(),
  finish_reason: z.enum(finishReasons as [string, ...string[]]).optional(),
  /**
   * What the model thought before it answered (thinking blocks, reasoning items), apart from
   * `text`: shown, exported and sent back, never compared as the answer.
   */
  reasoning: z.array(TraceReasoningPart).optional(),
  ...tokens,
  /** Prompt tokens read from / written to the provider's cache (part of `tok_prompt`). */
  tok_cache_read: z.number().int().nonnegative().optional(),
  tok_cache_write: z.number().int().nonnegative().optional(),
  /** Output tokens the model spent reasoning (part of `tok_completion`), when it says. */
  tok_reasoning: z.number().int().nonnegative().optional(),
  /** What the call cost, in US dollars; absent when the model has no price (unknown, not zero). */
  cost_usd: z.number().nonnegative().optional(),
  /** Set when the answer came from a cache (`cachedModel`, a cassette): it cost nothing. */
  cache_hit: z.literal(true).optional(),
  /** The provider's id of the answer, and the model it says answered (can differ from `model`). */
  response_id: z.string().optional(),
  response_model: z.string().optional(),
  /** A streamed call: milliseconds from the request to its first chunk, and how many chunks came. */
  first_chunk_ms: z.number().nonnegative().optional(),
  chunks: z.number().int().nonnegative().optional(),
  duration_ms: z.number().nonnegative(),
  error: TraceError.optional(),
});

const ToolStartEvent = z.object({
  ...envelope,
  event: z.literal('tool_start'),
  tool: z.string(),
  call_id: z.string(),
  /**
   * The arguments as the model gave them. Absent only where they were never recorded: a call
   * imported from spans exported without captured content.
   */
  args: z.unknown().optional(),
  /** Absent for a first attempt. */
  attempt: z.number().int().positive().optional(),
  /** Set for a tool served by an MCP server. */
  mcp_server: mcpServer,
  /** In ReAct mode: the model's Thought before this Action. */
  thought: z.string().optional(),
  /**
   * The tool's description, for a call recorded where the agent's tool definitions are not (an
   * import of spans without captured content); the loop's own calls leave it to `agent_start`.
   */
  description: z.string().optional(),
});

const ToolEndEvent = z.object({
  ...envelope,
  event: z.literal('tool_end'),
  tool: z.string(),
  call_id: z.string(),
  /**
   * The arguments as the model gave them (its JSON parsed; the text when it was not JSON). Absent
   * only where they were never recorded (spans imported without captured content).
   */
  args: z.unknown().optional(),
  /**
   * What the tool's schema made of `args` and the tool ran with (defaults filled in, transforms
   * applied), when that is not the same JSON as `args`.
   */
  input: z.unknown().optional(),
  result: z.unknown().optional(),
  error: TraceError.optional(),
  duration_ms: z.number().nonnegative(),
  attempt: z.number().int().positive(),
  mcp_server: mcpServer,
});

const handoffFields = {
  from: z.string(),
  to: z.string(),
  depth: z.number().int().nonnegative(),
  mode: z.enum(['pass_control', 'return_to_caller']),
  path: z.array(z.string()).optional(),
};

const HandoffStartEvent = z.object({
  ...envelope,
  event: z.literal('handoff_start'),
  ...handoffFields,
  call_id: z.string().optional(),
  /** Set when a router chose the target: by the model, a rule, or the fallback. */
  routed_by: z.enum(['llm', 'rule', 'fallback']).optional(),
  route_reason: z.string().optional(),
});

const HandoffEndEvent = z.object({
  ...envelope,
  event: z.literal('handoff_end'),
  ...handoffFields,
  duration_ms: z.number().nonnegative(),
  error: TraceError.optional(),
});

const GuardrailEvent = z.object({
  ...envelope,
  event: z.literal('guardrail'),
  guardrail: z.string(),
  stage: z.enum(['input', 'output', 'tool']),
  verdict: z.enum(['allow', 'warn', 'block']),
  reason: z.string(),
  details: z.unknown().optional(),
});

const RetryEvent = z.object({
  ...envelope,
  event: z.literal('retry'),
  target: z.enum(['model', 'tool']),
  name: z.string(),
  attempt: z.number().int().positive(),
  delay_ms: z.number().nonnegative(),
  error: TraceError,
  fallback: z.string().optional(),
});

/** A model call held back by its provider's rate limit (`rateLimits`) before it started. */
const RateLimitWaitEvent = z.object({
  ...envelope,
  event: z.literal('rate_limit_wait'),
  /** The limited provider, e.g. `openai`. */
  provider: z.string(),
  model: z.string(),
  waited_ms: z.number().nonnegative(),
  /** What was full: the minute's requests, its tokens, or the provider's `retry-after`. */
  reason: z.enum(['requests', 'tokens', 'retry_after']),
  /**
   * Set when other runs' calls (or another run's `retry-after`) made the wait longer than the
   * run's own calls would have: a rerun waits at least as long, on its clock.
   */
  by_others: z.literal(true).optional(),
});

/** A call the run stops for until a person decides on it; the pause ends the run `interrupted`. */
const ApprovalRequestedEvent = z.object({
  ...envelope,
  event: z.literal('approval_requested'),
  call_id: z.string(),
  tool: z.string(),
  /** `workflow_step`: a workflow's approval step (`call_id` and `tool` are the step's name). */
  kind: z.enum(['tool', 'handoff', 'delegation', 'workflow_step']),
  args: z.unknown(),
});

/** A person's decision on a pending call, where the run goes on (`resume`). */
const ApprovalResolvedEvent = z.object({
  ...envelope,
  event: z.literal('approval_resolved'),
  call_id: z.string(),
  tool: z.string(),
  decision: z.enum(['approved', 'rejected', 'edited']),
  /** Who decided. */
  by: z.string().optional(),
  /** Why: for a rejection, what the model is told. */
  reason: z.string().optional(),
  /** For an edit: the arguments the call runs with instead. */
  args: z.unknown().optional(),
});

/**
 * An answer of an agent in ReAct mode that was not a ReAct step: the model is told `message` as
 * the observation and asked again, until `limits.maxMalformedAnswers` is used.
 */
const MalformedAnswerEvent = z.object({
  ...envelope,
  event: z.literal('malformed_answer'),
  problem: z.enum(malformedAnswerProblems as [string, ...string[]]),
  /** What was wrong and how to answer: the observation the model is told. */
  message: z.string(),
  /** The 1-based count of the agent's malformed answers in this turn, this one included. */
  count: z.number().int().positive(),
  /** The agent's model call that gave the answer. */
  step: z.number().int().positive(),
});

const AgentEndEvent = z.object({
  ...envelope,
  event: z.literal('agent_end'),
  stop_reason: stopReason,
  steps: z.number().int().nonnegative(),
  tool_calls: z.number().int().nonnegative(),
  ...tokens,
  duration_ms: z.number().nonnegative(),
  output: z.string().optional(),
  error: TraceError.optional(),
  /** The agent this one handed the conversation to; the stop reason is then that chain's. */
  handed_off_to: z.string().optional(),
  /** What the agent's own model calls cost. */
  cost: costSummary.optional(),
  ...stopExplanation,
});

const RunEndEvent = z.object({
  ...envelope,
  event: z.literal('run_end'),
  stop_reason: stopReason,
  /** The seq of this event: the seal a reader checks the run against. */
  last_seq: z.number().int().nonnegative(),
  counts: z.object({
    events: z.number().int().positive(),
    agents: z.number().int().nonnegative(),
    llm_calls: z.number().int().nonnegative(),
    tool_calls: z.number().int().nonnegative(),
    tool_errors: z.number().int().nonnegative(),
  }),
  ...tokens,
  duration_ms: z.number().nonnegative(),
  output: z.string().optional(),
  error: TraceError.optional(),
  ...stopExplanation,
  /**
   * What exporting sinks (OTLP) lost so far: spans dropped, spans that failed to send, and spans
   * still unconfirmed (in flight) when the run's flush time ran out.
   */
  export: z
    .object({
      dropped_spans: z.number().int().nonnegative(),
      failed_spans: z.number().int().nonnegative(),
      pending_spans: z.number().int().nonnegative().optional(),
    })
    .optional(),
  /** How many secrets redaction replaced in this run's events and chunks. */
  redactions: z.number().int().positive().optional(),
  /**
   * For a run stopped from outside (its caller's signal, a stream's reader, its deadline): how
   * many events it had made when the stop reached it (events with a lower `made`, or `seq`, came
   * before it). A rerun stops at the same place.
   */
  stopped_made: z.number().int().nonnegative().optional(),
  /** What the run's model calls cost (a resumed run: both parts). */
  cost: costSummary.optional(),
});

/**
 * One trace event: one line of a JSONL trace, one start or end of an OpenTelemetry span. The
 * single source of truth for the writer, the reader, the CLI and the matchers.
 */
export const TraceEvent = z.discriminatedUnion('event', [
  RunStartEvent,
  AgentStartEvent,
  LlmStartEvent,
  LlmEndEvent,
  ToolStartEvent,
  ToolEndEvent,
  HandoffStartEvent,
  HandoffEndEvent,
  GuardrailEvent,
  RetryEvent,
  MalformedAnswerEvent,
  ApprovalRequestedEvent,
  ApprovalResolvedEvent,
  RateLimitWaitEvent,
  FeatureEvent,
  TransformEvent,
  WorkflowStartEvent,
  WorkflowStepStartEvent,
  WorkflowStepEndEvent,
  WorkflowEndEvent,
  PlanEvent,
  SpanStartEvent,
  SpanEndEvent,
  AgentEndEvent,
  RunEndEvent,
  FeedbackEvent,
  EvaluationEvent,
]);
export type TraceEvent = z.infer<typeof TraceEvent>;

/** The name of a trace event, e.g. `tool_end`. */
export type TraceEventName = TraceEvent['event'];

/** The event with the given name. */
export type TraceEventOf<Name extends TraceEventName> = Extract<TraceEvent, { event: Name }>;

/** Every event name, in the order a run emits them. */
export const traceEventNames: readonly TraceEventName[] = [
  'run_start',
  'agent_start',
  'llm_start',
  'llm_end',
  'tool_start',
  'tool_end',
  'handoff_start',
  'handoff_end',
  'guardrail',
  'retry',
  'malformed_answer',
  'approval_requested',
  'approval_resolved',
  'rate_limit_wait',
  'feature',
  'transform',
  'workflow_start',
  'workflow_step_start',
  'workflow_step_end',
  'workflow_end',
  'plan',
  'span_start',
  'span_end',
  'agent_end',
  'run_end',
  'feedback',
  'evaluation',
];

/**
 * The fields every event has, whatever its kind: what a reader can still check of an event kind
 * written by a newer minor version of the schema.
 */
export const TraceEventEnvelope = z.object({ ...envelope, event: z.string().min(1) });
export type TraceEventEnvelope = z.infer<typeof TraceEventEnvelope>;

/** The fields this version knows, per event kind. */
export const knownTraceFields: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  TraceEvent.options.map(option => [option.shape.event.value, new Set(Object.keys(option.shape))]),
);
