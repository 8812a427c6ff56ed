import type { AnyAgent } from '../../agent/agent.js';
import type { LanguageModel } from '../../model/language-model.js';
import type { OpenSpan, TraceEventFields } from '../../trace/run-tracer.js';
import { sleepOn, type Clock } from '../../util/clock.js';
import { defined } from '../../util/defined.js';
import type { FeatureContext, FeatureEventName, RecordEvent } from './hook-context.js';
import type { WriteTransform } from './transforms.js';
import type { RunState } from '../frame/run-state.js';

/**
 * Writes a feature's event under `span`; a `guardrail` event that is not an `allow` is also a
 * finding of the run (the result's `guardrails`).
 */
export function recordFeatureEvent<Name extends FeatureEventName>(
  state: RunState,
  span: OpenSpan,
  name: Name,
  fields: TraceEventFields<Name>,
): void {
  if (name === 'guardrail') {
    const finding = fields as unknown as TraceEventFields<'guardrail'>;
    if (finding.verdict !== 'allow')
      state.guardrailFindings.push({
        guardrail: finding.guardrail,
        stage: finding.stage,
        verdict: finding.verdict,
        reason: finding.reason,
        ...defined('details', finding.details),
      });
  }
  state.tracer.point(name, span, fields);
}

/** A writer of features' events under `span`. */
export function eventRecorder(state: RunState, span: OpenSpan): RecordEvent {
  return (name, fields) => recordFeatureEvent(state, span, name, fields);
}

/**
 * Writes a feature's own event (a `feature` event) with a hook's writer, under the span the hook
 * was called in: the writer takes it as it takes the trace's own events.
 */
export function emitFeatureEvent(record: RecordEvent, fields: TraceEventFields<'feature'>): void {
  (record as unknown as (name: 'feature', fields: TraceEventFields<'feature'>) => void)(
    'feature',
    fields,
  );
}

/**
 * What the features see of one agent's turn: the run's facts (plain fields: they do not change in
 * a run), and what a hook is given, made at each call with the turn's step then.
 */
export class TurnContext {
  readonly runId: string;
  readonly session: string;
  readonly clock: Clock;
  readonly signal: AbortSignal | undefined;
  /** Writes an event under the agent's span. */
  readonly record: RecordEvent;
  readonly wait: (ms: number) => Promise<void>;
  /** Writes a `transform` event under the agent's span. */
  readonly transformed: WriteTransform;
  readonly #state: RunState;
  readonly #steps: () => number;

  constructor(
    readonly agent: AnyAgent,
    state: RunState,
    agentSpan: OpenSpan,
    steps: () => number,
  ) {
    this.runId = state.tracer.runId;
    this.session = state.tracer.session;
    this.clock = state.clock;
    this.signal = state.signal;
    this.#state = state;
    this.#steps = steps;
    this.record = eventRecorder(state, agentSpan);
    this.wait = ms => sleepOn(this.clock, ms, this.signal);
    this.transformed = fields => state.tracer.point('transform', agentSpan, fields);
  }

  /** The agent's model calls so far in this turn. */
  get step(): number {
    return this.#steps();
  }

  /** What a hook is given: the run's facts, the turn's step now, and the hook's own fields. */
  with<Fields extends object>(fields: Fields): FeatureContext & Fields {
    return {
      runId: this.runId,
      session: this.session,
      agent: this.agent,
      step: this.#steps(),
      clock: this.clock,
      signal: this.signal,
      record: this.record,
      wait: this.wait,
      ...fields,
    };
  }

  /** What a hook of a tool call is given: its `record` writes under the call's span. */
  under<Fields extends object>(span: OpenSpan, fields: Fields): FeatureContext & Fields {
    return this.with({ ...fields, record: eventRecorder(this.#state, span) });
  }

  /** Writes a `transform` event under `span` (a tool call's). */
  transformedUnder(span: OpenSpan): WriteTransform {
    return fields => this.#state.tracer.point('transform', span, fields);
  }
}

/** The model a call of `agent` goes to: the run's override's, or the agent's own. */
export function calledModel(agent: AnyAgent, state: RunState): LanguageModel {
  return state.overrides.model?.(agent, agent.model) ?? agent.model;
}
