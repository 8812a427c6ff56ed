import type { AnyAgent } from '../../agent/agent.js';
import type { LanguageModel } from '../../model/language-model.js';
import type { OpenSpan, TraceEventFields } from '../../trace/run-tracer.js';
import { sleepOn, type Clock } from '../../util/clock.js';
import { defined } from '../../util/defined.js';
import type { FeatureContext, FeatureEventName, RecordEvent } from './feature.js';
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
 * What the features see of one agent's turn: the run's facts (plain fields: they do not change in
 * a run), the turn's step, and events written under the agent's span. Made once per turn.
 */
export class TurnContext implements FeatureContext {
  readonly runId: string;
  readonly session: string;
  readonly clock: Clock;
  readonly signal: AbortSignal | undefined;
  readonly #state: RunState;
  readonly #span: OpenSpan;
  readonly #steps: () => number;
  #record: RecordEvent | undefined;

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
    this.#span = agentSpan;
    this.#steps = steps;
  }

  get step(): number {
    return this.#steps();
  }

  /** Made on first use: most turns write no feature event. */
  get record(): RecordEvent {
    return (this.#record ??= eventRecorder(this.#state, this.#span));
  }

  wait(ms: number): Promise<void> {
    return sleepOn(this.clock, ms, this.signal);
  }
}

/** The model a call of `agent` goes to: the run's override's, or the agent's own. */
export function calledModel(agent: AnyAgent, state: RunState): LanguageModel {
  return state.overrides.model?.(agent, agent.model) ?? agent.model;
}
