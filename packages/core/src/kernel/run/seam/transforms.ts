import type { ModelResponse } from '../../model/language-model.js';
import type { TraceEventFields } from '../../trace/run-tracer.js';
import { hashedMessagesJson } from '../../protocol/message.js';
import { hashString } from '../../util/hash.js';
import type {
  AnswerAt,
  FeatureHooks,
  ModelCallAt,
  ModelCallRequest,
  ToolResultAt,
} from './feature-hooks.js';
import type { MaybePromise } from './hook-context.js';

/** Writes the `transform` event of a change a feature made. */
export type WriteTransform = (fields: TraceEventFields<'transform'>) => void;

/** A transform hook with the name of its feature. */
interface Named<Hook> {
  readonly feature: string;
  readonly hook: Hook;
}

type Hook<Name extends 'transformRequest' | 'transformAnswer' | 'transformToolResult'> =
  NonNullable<FeatureHooks[Name]>;

function named<Name extends 'transformRequest' | 'transformAnswer' | 'transformToolResult'>(
  features: readonly { readonly name: string; readonly hooks: FeatureHooks }[],
  name: Name,
): Named<Hook<Name>>[] {
  const found: Named<Hook<Name>>[] = [];
  for (const { name: feature, hooks } of features) {
    const hook = hooks[name];
    if (hook !== undefined)
      found.push({ feature, hook: (hook as (at: never) => unknown).bind(hooks) as Hook<Name> });
  }
  return found;
}

/**
 * The features' transforms of what the loop sends and reads: a model call's request, the model's
 * answer, a tool call's result. Each feature is given what the one before gave; each change is
 * written (a `transform` event naming the feature, what changed and what came of it), so the trace
 * says who changed what the model was sent or what the loop read, and a rerun compares it.
 */
export class Transforms {
  readonly requests: readonly Named<Hook<'transformRequest'>>[];
  readonly answers: readonly Named<Hook<'transformAnswer'>>[];
  readonly toolResults: readonly Named<Hook<'transformToolResult'>>[];

  constructor(features: readonly { readonly name: string; readonly hooks: FeatureHooks }[]) {
    this.requests = named(features, 'transformRequest');
    this.answers = named(features, 'transformAnswer');
    this.toolResults = named(features, 'transformToolResult');
  }

  /** The request after every feature's transform (the same object when none changed it). */
  request(at: ModelCallAt, write: WriteTransform): Promise<ModelCallRequest> {
    return throughEach(this.requests, at.request, request => ({ ...at, request }), {
      changed: changedParts,
      written: (feature, changed, request) =>
        write({
          feature,
          target: 'request',
          step: at.step + 1,
          changed,
          ...(changed.includes('instructions') ? { instructions: request.instructions } : {}),
          hash: requestHash(request),
        }),
    });
  }

  /** The answer the loop reads, after every feature's transform. */
  answer(at: AnswerAt, write: WriteTransform): Promise<ModelResponse> {
    return throughEach(this.answers, at.response, response => ({ ...at, response }), {
      changed: changedAnswer,
      written: (feature, changed, response) =>
        write({
          feature,
          target: 'answer',
          step: at.step,
          changed,
          hash: hashString(JSON.stringify([response.text, response.toolCalls])),
        }),
    });
  }

  /** What the model reads of a tool call's result, after every feature's transform. */
  toolResult(at: ToolResultAt, write: WriteTransform): Promise<string> {
    const { callId, toolName } = at.call;
    return throughEach(this.toolResults, at.content, content => ({ ...at, content }), {
      changed: () => ['content'],
      written: (feature, changed, content) =>
        write({
          feature,
          target: 'tool_result',
          call_id: callId,
          tool: toolName,
          changed,
          content,
        }),
    });
  }
}

/**
 * `value` through each feature's transform in order, each given what the one before gave; each
 * change that changed something is written with its feature.
 */
async function throughEach<Value, At>(
  hooks: readonly Named<(at: At) => MaybePromise<Value | undefined>>[],
  value: Value,
  at: (value: Value) => At,
  {
    changed,
    written,
  }: {
    readonly changed: (before: Value, after: Value) => string[];
    readonly written: (feature: string, changed: string[], value: Value) => void;
  },
): Promise<Value> {
  let current = value;
  for (const { feature, hook } of hooks) {
    const next = await hook(at(current));
    if (next === undefined || next === current) continue;
    const parts = changed(current, next);
    current = next;
    if (parts.length > 0) written(feature, parts, current);
  }
  return current;
}

/** The parts of an answer a transform changed. */
function changedAnswer(before: ModelResponse, after: ModelResponse): string[] {
  const changed: string[] = [];
  if (after.text !== before.text) changed.push('text');
  if (JSON.stringify(after.toolCalls) !== JSON.stringify(before.toolCalls))
    changed.push('tool_calls');
  return changed;
}

/** The parts of a request a transform changed. */
function changedParts(before: ModelCallRequest, after: ModelCallRequest): string[] {
  const changed: string[] = [];
  if (after.instructions !== before.instructions) changed.push('instructions');
  if (
    after.messages !== before.messages &&
    JSON.stringify(after.messages) !== JSON.stringify(before.messages)
  )
    changed.push('messages');
  if (after.tools !== before.tools && JSON.stringify(after.tools) !== JSON.stringify(before.tools))
    changed.push('tools');
  return changed;
}

/** The hash of what a transformed request holds. */
function requestHash({ instructions, messages, tools }: ModelCallRequest): string {
  return hashString(
    `[${JSON.stringify(instructions)},${JSON.stringify(tools)},${hashedMessagesJson(messages)}]`,
  );
}
