import { type TraceEvent } from '@agent-trace/core';
import { canonicalJson, defined } from '@agent-trace/core/util';
import { errorKind, featureEventText, transformText } from '../model/index.js';
import { inCallOrder } from './call-order.js';
import { refusedModelCall } from './decided-kinds.js';
import { isKeptRead } from './recorded-kept-state.js';
import { explainRequest, type RequestChange } from './explain-request.js';
import { requestContexts, type RequestContext } from './request-context.js';

/** One place where a rerun (or a second trace) did something else than the recording. */
export interface Divergence {
  /** `changed`: both did something, differently; `missing`: only the recording did it; `extra`: only the rerun. */
  readonly kind: 'changed' | 'missing' | 'extra';
  /** The event's seq in the rerun's trace (for `missing`: in the recording). */
  readonly seq: number;
  readonly agent: string;
  /** What the recording did, for people. */
  readonly expected: string | undefined;
  /** What the rerun did, for people. */
  readonly actual: string | undefined;
  /**
   * For a model request that changed: how, part by part (the model, its settings, the
   * instructions, a tool's definition, a message, …).
   */
  readonly explanation?: readonly RequestChange[];
  /**
   * For a step the rerun skipped (`missing`): what the rerun did next in its place, so the reason
   * shows (`agent 'desk' stops: budget_exceeded …`); absent when the rerun did nothing more.
   */
  readonly instead?: string;
}

interface Line {
  readonly seq: number;
  readonly agent: string;
  readonly text: string;
  /** What the request held, for a model call. */
  readonly request?: RequestContext;
}

const cut = (text: string, length = 120): string =>
  text.length > length ? `${text.slice(0, length - 1)}…` : text;

/** What an event means for behaviour, as a line to compare; undefined for bookkeeping events. */
function describe(event: TraceEvent): string | undefined {
  switch (event.event) {
    case 'agent_start':
      return `agent '${event.agent}' starts`;
    case 'llm_start': {
      const last = event.messages.at(-1);
      const context =
        last === undefined
          ? ''
          : `, last new message ${last.role}: ${cut(JSON.stringify(last.role === 'assistant' ? last.tool_calls : last.content), 80)}`;
      const settings =
        event.model_settings === undefined ? '' : ` ${canonicalJson(event.model_settings)}`;
      return `model call ${event.step} of '${event.agent}' to ${event.model}${settings} sends request ${event.request_hash} (${event.message_count} messages${context})`;
    }
    case 'llm_end': {
      if (event.error !== undefined) return `the model fails: ${errorKind(event.error)}`;
      const calls = (event.tool_calls ?? []).map(call => `${call.tool}(${call.arguments})`);
      const text = event.text === undefined || event.text === '' ? '' : `"${cut(event.text, 80)}"`;
      return `the model answers ${[text, ...calls].filter(part => part !== '').join(' + ') || '(nothing)'}`;
    }
    case 'tool_start':
      return `tool '${event.tool}' is called with ${cut(canonicalJson(event.args))}`;
    case 'tool_end': {
      // What the tool's schema made of the model's arguments, where it changed them.
      const ran = event.input === undefined ? '' : `, run with ${cut(canonicalJson(event.input))},`;
      return event.error === undefined
        ? `tool '${event.tool}'${ran} returns ${cut(canonicalJson(event.result))}`
        : `tool '${event.tool}'${ran} fails: ${errorKind(event.error)}`;
    }
    case 'feature':
      // A read of kept state is an input of the run (what other runs left), not what it did.
      return isKeptRead(event) ? undefined : `feature event ${featureEventText(event)}`;
    case 'transform':
      return `${transformText(event)} in '${event.agent}'`;
    case 'handoff_start':
      return `'${event.from}' hands off to '${event.to}' (${event.mode})`;
    case 'approval_requested':
      return `the run asks a person to approve ${event.kind} '${event.tool}' (${event.call_id}) with ${cut(canonicalJson(event.args))}`;
    case 'approval_resolved':
      return `${event.by === undefined ? 'a person' : `'${event.by}'`} ${event.decision} '${event.tool}' (${event.call_id})${event.reason === undefined ? '' : `: ${event.reason}`}${event.args === undefined ? '' : ` with ${cut(canonicalJson(event.args))}`}`;
    case 'guardrail':
      return `guardrail '${event.guardrail}' (${event.stage}) says ${event.verdict}`;
    case 'agent_end':
      // An agent a limit stopped says which: a lowered maxSteps stops it elsewhere.
      return event.limit === undefined
        ? undefined
        : `agent '${event.agent}' stops: ${event.stop_reason} (${event.limit.name} ${event.limit.value})`;
    case 'run_end':
      // The limit that stopped it is behaviour too: a lowered maxSteps stops elsewhere.
      return `the run stops: ${event.stop_reason}${event.limit === undefined ? '' : ` (${event.limit.name} ${event.limit.value})`}`;
    case 'workflow_start':
      return `workflow '${event.workflow}' starts: steps ${event.steps.map(step => step.name).join(', ')}`;
    case 'workflow_step_start':
      return `step '${event.name}' runs ${event.runs.kind}${event.runs.name === undefined ? '' : ` '${event.runs.name}'`} on ${cut(canonicalJson(event.input))}`;
    case 'workflow_step_end':
      return event.status === 'completed'
        ? `step '${event.name}' completes with ${cut(canonicalJson(event.output))}`
        : `step '${event.name}' ${event.status}${event.error === undefined ? '' : `: ${event.error.type}`}${event.reason === undefined ? '' : `: ${event.reason}`}`;
    case 'plan':
      return `plan ${event.revision} is ${event.verdict}: ${cut(canonicalJson(event.plan))}`;
    default:
      return undefined;
  }
}

function lines(events: readonly TraceEvent[]): Line[] {
  const requests = requestContexts(events);
  const unsent = refusedAttempts(events);
  return inCallOrder(events).flatMap(event => {
    // An attempt refused before it was sent (an open breaker) sent no request: its refusal, on its
    // llm_end, is what it did. The request it would have sent is not known (a feature's wrapper
    // shapes it as it is sent), so comparing it would put a difference before the refusal.
    if (event.event === 'llm_start' && unsent.has(event.span_id)) return [];
    const text = describe(event);
    if (text === undefined) return [];
    const request = event.event === 'llm_start' ? requests.get(event) : undefined;
    return [
      request === undefined
        ? { seq: event.seq, agent: event.agent, text }
        : { seq: event.seq, agent: event.agent, text, request },
    ];
  });
}

/** The spans of model attempts refused before they were sent (a breaker's, a feature's refusal). */
function refusedAttempts(events: readonly TraceEvent[]): ReadonlySet<string> {
  const refused = new Set<string>();
  for (const event of events)
    if (event.event === 'llm_end' && refusedModelCall(event.error?.type))
      refused.add(event.span_id);
  return refused;
}

/** One side of an {@link AlignedStep}: an event of a run, as the comparison words it. */
export interface StepLine {
  readonly seq: number;
  readonly agent: string;
  /** What the event did, for people; two steps are the same when their texts are. */
  readonly text: string;
}

/**
 * A step of two runs lined up: `same` (both did it), `changed` (both did something here,
 * differently), `missing` (only the first, the recording, did it) or `extra` (only the second).
 */
export interface AlignedStep {
  readonly kind: 'same' | 'changed' | 'missing' | 'extra';
  readonly expected: StepLine | undefined;
  readonly actual: StepLine | undefined;
  /** For a model request that changed: how, part by part. */
  readonly explanation?: readonly RequestChange[];
}

const stepLine = ({ seq, agent, text }: Line): StepLine => ({ seq, agent, text });

/**
 * Lines up what two runs did, step by step, so that an inserted or missing step shows once and
 * does not cascade into everything after it (the sides resynchronise within `window` steps).
 * Bookkeeping events (ends that only close a span) are left out.
 */
export function alignTraces(
  expected: readonly TraceEvent[],
  actual: readonly TraceEvent[],
  { window = 64 } = {},
): AlignedStep[] {
  const left = lines(expected);
  const right = lines(actual);
  const steps: AlignedStep[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    const a = left[i];
    const b = right[j];
    if (a !== undefined && b !== undefined && a.text === b.text) {
      steps.push({ kind: 'same', expected: stepLine(a), actual: stepLine(b) });
      i++;
      j++;
      continue;
    }
    const sync = resync(left, right, i, j, window);
    const skipLeft = sync === undefined ? left.length - i : sync[0] - i;
    const skipRight = sync === undefined ? right.length - j : sync[1] - j;
    const paired = Math.min(skipLeft, skipRight);
    for (let k = 0; k < paired; k++)
      steps.push(changedStep(left[i + k] as Line, right[j + k] as Line));
    for (let k = paired; k < skipLeft; k++)
      steps.push({ kind: 'missing', expected: stepLine(left[i + k] as Line), actual: undefined });
    for (let k = paired; k < skipRight; k++)
      steps.push({ kind: 'extra', expected: undefined, actual: stepLine(right[j + k] as Line) });
    i += skipLeft;
    j += skipRight;
  }
  return steps;
}

function changedStep(was: Line, now: Line): AlignedStep {
  const explanation =
    was.request === undefined || now.request === undefined
      ? undefined
      : explainRequest(was.request, now.request);
  return {
    kind: 'changed',
    expected: stepLine(was),
    actual: stepLine(now),
    ...(explanation === undefined || explanation.length === 0 ? {} : { explanation }),
  };
}

/**
 * Compares what two runs did, step by step (aligned as {@link alignTraces} does). Returns every
 * difference, in order; an empty list means the same behaviour.
 */
export function compareTraces(
  expected: readonly TraceEvent[],
  actual: readonly TraceEvent[],
  options: { window?: number } = {},
): Divergence[] {
  const steps = alignTraces(expected, actual, options);
  // What the rerun did next after each step: a skipped step's "instead".
  const next: (string | undefined)[] = [];
  for (let index = steps.length - 1, after: string | undefined; index >= 0; index--) {
    next[index] = after;
    after = steps[index]?.actual?.text ?? after;
  }
  return steps.flatMap((step, index) => {
    if (step.kind === 'same') return [];
    const where = (step.kind === 'missing' ? step.expected : step.actual) as StepLine;
    const instead = step.kind === 'missing' ? next[index] : undefined;
    return [
      {
        kind: step.kind,
        seq: where.seq,
        agent: where.agent,
        expected: step.expected?.text,
        actual: step.actual?.text,
        ...defined('explanation', step.explanation),
        ...defined('instead', instead),
      },
    ];
  });
}

/**
 * The nearest pair of positions (fewest lines skipped) where the two sides agree again; of pairs
 * as near, the most even (a line that changed reads as changed, not as one missing and one extra).
 */
function resync(
  left: readonly Line[],
  right: readonly Line[],
  i: number,
  j: number,
  window: number,
): [number, number] | undefined {
  for (let distance = 1; distance <= 2 * window; distance++) {
    for (const skipLeft of evenFirst(distance)) {
      const skipRight = distance - skipLeft;
      if (skipLeft > window || skipRight > window) continue;
      const a = left[i + skipLeft];
      const b = right[j + skipRight];
      if (a !== undefined && b !== undefined && a.text === b.text)
        return [i + skipLeft, j + skipRight];
    }
  }
  return undefined;
}

const splits: number[][] = [];

/** 0 … `distance`, the most even splits first (1, 0, 2 for 2; 0, 1 for 1), made once each. */
function evenFirst(distance: number): readonly number[] {
  let made = splits[distance];
  if (made === undefined) {
    made = Array.from({ length: distance + 1 }, (_, k) => k).sort(
      (a, b) => Math.abs(2 * a - distance) - Math.abs(2 * b - distance) || a - b,
    );
    splits[distance] = made;
  }
  return made;
}

/** A divergence as one paragraph: where, what was recorded, what happened. */
export function formatDivergence(divergence: Divergence): string {
  const where = `seq ${divergence.seq}, agent '${divergence.agent}'`;
  if (divergence.kind === 'missing')
    return `${where}: the recording has a step the rerun skipped\n  expected: ${divergence.expected}${divergence.instead === undefined ? '' : `\n  instead:  ${divergence.instead}`}`;
  if (divergence.kind === 'extra')
    return `${where}: the rerun did something the recording does not have\n  actual:   ${divergence.actual}`;
  const why = (divergence.explanation ?? []).map(change => `\n  changed:  ${change.summary}`);
  return `${where}\n  expected: ${divergence.expected}\n  actual:   ${divergence.actual}${why.join('')}`;
}
