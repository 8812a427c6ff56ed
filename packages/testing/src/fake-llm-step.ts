import type { FinishReason, ModelRequest, Usage } from '@agent-trace/core';

/** A tool call in a FakeLLM step. */
export interface FakeToolCall {
  /** The tool to call (it may be one the agent does not have). */
  name: string;
  /** The arguments, serialised as JSON for the agent. @defaultValue {} */
  args?: unknown;
  /** Raw argument text, sent as is instead of `args` (for malformed JSON). */
  argumentsText?: string;
  /** The call id. @defaultValue `call_<model call>_<position>` */
  id?: string;
}

/** A scripted answer: text and/or tool calls. */
export interface FakeAnswerStep {
  text?: string;
  toolCalls?: readonly FakeToolCall[];
  /** @defaultValue a rough, deterministic estimate from the request and the answer */
  usage?: Partial<Usage>;
  /** @defaultValue `tool_calls` when there are tool calls, else `stop` */
  finishReason?: FinishReason;
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
) => FakeAnswerStep | FakeErrorStep | Promise<FakeAnswerStep | FakeErrorStep>;

/** One step of a FakeLLM script. */
export type FakeLLMStep = FakeAnswerStep | FakeErrorStep | FakeResponder;

/** True when the step is a scripted failure. */
export function isFakeErrorStep(step: FakeAnswerStep | FakeErrorStep): step is FakeErrorStep {
  return 'error' in step && typeof step.error === 'object' && step.error !== null;
}
