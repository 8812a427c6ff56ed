import type { FinishReason, ModelRequest, ReasoningPart, Usage } from '@agent-trace/core';

/** A tool call in a FakeLLM step. */
export interface FakeToolCall {
  /** The tool to call (it may be one the agent does not have). */
  name: string;
  /** The arguments, serialised as JSON for the agent. @defaultValue {} */
  args?: unknown;
  /** Raw argument text, sent as is instead of `args` (for malformed JSON). */
  argumentsText?: string;
  /** The call id. @defaultValue `call_<turn>_<position>`: the model call's number, or the conversation's turn past it (see `fakeLLM`) */
  id?: string;
}

/** A scripted answer: text and/or tool calls. */
export interface FakeAnswerStep {
  text?: string;
  toolCalls?: readonly FakeToolCall[];
  /**
   * What the model thought before it answered, as a reasoning model says it: a text (one piece),
   * or the pieces themselves (with what a provider would want back). Streamed word by word before
   * the text. @defaultValue none
   */
  reasoning?: string | readonly ReasoningPart[];
  /** @defaultValue a rough, deterministic estimate from the request and the answer */
  usage?: Partial<Usage>;
  /** @defaultValue `tool_calls` when there are tool calls, else `stop` */
  finishReason?: FinishReason;
  /**
   * The model the answer says answered (`gen_ai.response.model`), as a provider's does; another
   * than the one asked for shows a provider serving a different version. @defaultValue the
   * FakeLLM's own model id
   */
  responseModel?: string;
  /**
   * How the text is split when streamed: the pieces themselves (they must join to `text`), or
   * pieces of this many characters. @defaultValue word by word
   */
  deltas?: readonly string[] | number;
  /**
   * Cuts the answer after this many text deltas, as a dropped connection does: a retryable
   * `stream_interrupted` failure (without streaming the call fails the same way).
   */
  cutAfterDeltas?: number;
  /**
   * How the stream ends at `cutAfterDeltas`: the connection drops (`stream_interrupted`), a chunk
   * that is not JSON arrives (a retryable `server` failure), or nothing more comes and the stream
   * never ends, until the request is cancelled (by `limits.streamIdleTimeoutMs` when streaming,
   * `limits.modelTimeoutMs` otherwise, or an abort). @defaultValue 'dropped'
   */
  cutAs?: 'dropped' | 'malformed_chunk' | 'silence';
}

/** A step whose call rejects with `throw`, as is (an SDK bug, a network error that is not HTTP). */
export interface FakeThrowStep {
  throw: unknown;
}

/** A scripted failure of the model call, as a provider would send it. */
export interface FakeErrorStep {
  error: {
    /** HTTP status code: 429 rate limit, 408 timeout, 5xx server, 4xx bad request. */
    status: number;
    /** The provider's `retry-after`, in milliseconds. */
    retryAfterMs?: number;
    message?: string;
  };
}

/** A step computed from the request. */
export type FakeResponder = (
  request: ModelRequest,
  call: { readonly index: number },
) => FakeScriptedStep | Promise<FakeScriptedStep>;

/** A step as written in a script or returned by a responder. */
export type FakeScriptedStep = FakeAnswerStep | FakeErrorStep | FakeThrowStep;

/** One step of a FakeLLM script. */
export type FakeLLMStep = FakeScriptedStep | FakeResponder;

/** True when the step is a scripted failure. */
export function isFakeErrorStep(step: FakeScriptedStep): step is FakeErrorStep {
  return 'error' in step && typeof step.error === 'object' && step.error !== null;
}

/** True when the step throws its error as is. */
export function isFakeThrowStep(step: FakeScriptedStep): step is FakeThrowStep {
  return 'throw' in step;
}
