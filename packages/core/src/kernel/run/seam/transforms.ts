import type { ModelResponse } from '../../model/language-model.js';
import type { TraceEventFields } from '../../trace/run-tracer.js';
import { hashString } from '../../util/hash.js';
import type {
  AnswerAt,
  FeatureHooks,
  ModelCallAt,
  ModelCallRequest,
  ToolResultAt,
} from './feature-hooks.js';

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
  async request(at: ModelCallAt, write: WriteTransform): Promise<ModelCallRequest> {
    let { request } = at;
    for (const { feature, hook } of this.requests) {
      const next = await hook({ ...at, request });
      if (next === undefined || next === request) continue;
      const changed = changedParts(request, next);
      request = next;
      if (changed.length === 0) continue;
      write({ feature, target: 'request', step: at.step + 1, changed, hash: requestHash(next) });
    }
    return request;
  }

  /** The answer the loop reads, after every feature's transform. */
  async answer(at: AnswerAt, write: WriteTransform): Promise<ModelResponse> {
    let { response } = at;
    for (const { feature, hook } of this.answers) {
      const next = await hook({ ...at, response });
      if (next === undefined || next === response) continue;
      const changed: string[] = [];
      if (next.text !== response.text) changed.push('text');
      if (JSON.stringify(next.toolCalls) !== JSON.stringify(response.toolCalls))
        changed.push('tool_calls');
      response = next;
      if (changed.length === 0) continue;
      const hash = hashString(JSON.stringify([next.text, next.toolCalls]));
      write({ feature, target: 'answer', step: at.step, changed, hash });
    }
    return response;
  }

  /** What the model reads of a tool call's result, after every feature's transform. */
  async toolResult(at: ToolResultAt, write: WriteTransform): Promise<string> {
    let { content } = at;
    for (const { feature, hook } of this.toolResults) {
      const next = await hook({ ...at, content });
      if (next === undefined || next === content) continue;
      content = next;
      const { callId, toolName } = at.call;
      write({
        feature,
        target: 'tool_result',
        call_id: callId,
        tool: toolName,
        changed: ['content'],
        content,
      });
    }
    return content;
  }
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
  return hashString(JSON.stringify([instructions, tools, messages]));
}
