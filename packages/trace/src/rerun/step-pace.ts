import type { PacedStep, TraceEvent } from '@agent-trace/core';
import type { ReplayClock } from './replay-clock.js';
import { madeOf } from './made-order.js';
import type { ReplayedStop } from './replayed-stop.js';
import type { TurnMatch } from './turn-match.js';

/** A place in the recorded run: a time, and where among the run's events (see `madeOf`). */
interface Moment {
  readonly atMs: number;
  readonly made: number;
}

/** Where a recorded agent turn made its steps. */
interface RecordedTurn {
  /** Where each step's checks before its model call were decided, by step number. */
  readonly calls: Map<number, Moment>;
  /** Where each step's checks of the model's answer were decided, by step number. */
  readonly checks: Map<number, Moment>;
  /** The step whose answer came last, until the event after it (where its checks began). */
  answered: number | undefined;
  /** Where each of its rounds of tool calls was decided, in order. */
  readonly rounds: Moment[];
  /** Where the turn ended: the place of a step it never made (a limit stopped it first). */
  end: Moment | undefined;
  /** The turn's `agent_end`: a stop from outside may have ended it (see `ReplayedStop.ended`). */
  stoppedBy: TraceEvent | undefined;
  /** The step of its latest model call so far (while the turn is read). */
  step: number;
  /** The kind of its latest event so far (a round of tool calls begins after another kind). */
  last: string;
}

/**
 * Where the recorded run decided its steps, for a rerun of a run whose parts went on side by side:
 * each agent turn waits, before the features decide its next step (the checks before a model
 * call, of the model's answer, of a round of tool calls), until the time and place among the
 * run's events where it decided it, so that what parts decide together between answers (a shared
 * cost limit, a model breaker, a tool quota, a deadline) is decided where it was: after the
 * answers that came before it, before those that came after. The place is that of the turn's
 * first event after the decision, or the `decided_made` that event carries when other parts'
 * events came between. A rerun's turn is the recorded turn {@link TurnMatch} says it is.
 */
export class StepPace {
  /** Each recorded turn, by its agent span. */
  readonly #bySpan = new Map<string, RecordedTurn>();
  /** How many rounds of tool calls each of the rerun's turns (by its span) has paced. */
  readonly #rounds = new Map<string, number>();
  /** Each recorded workflow, by its name (the first of that name). */
  readonly #workflows = new Map<string, RecordedWorkflow>();

  /** @param turns - which recorded turn each of the rerun's turns is (its sink follows the rerun) */
  constructor(
    run: readonly TraceEvent[],
    private readonly clock: ReplayClock,
    private readonly turns: TurnMatch,
    private readonly stop: ReplayedStop,
  ) {
    const timeOfMade = new Map<number, number>();
    for (const event of run) timeOfMade.set(madeOf(event), Date.parse(event.time));
    const placeOf = (event: TraceEvent): Moment =>
      event.decided_made === undefined
        ? { atMs: Date.parse(event.time), made: madeOf(event) }
        : // Just after the last event made before the turn decided, at that event's time.
          {
            atMs: timeOfMade.get(event.decided_made - 1) ?? Date.parse(event.time),
            made: event.decided_made - 0.5,
          };
    const bySpan = this.#bySpan;
    readWorkflows(run, placeOf, this.#workflows);
    for (const event of run) {
      if (event.event === 'agent_start') {
        bySpan.set(event.span_id, {
          calls: new Map(),
          checks: new Map(),
          answered: undefined,
          rounds: [],
          end: undefined,
          stoppedBy: undefined,
          step: 0,
          last: '',
        });
        continue;
      }
      if (event.event === 'agent_end') {
        const turn = bySpan.get(event.span_id);
        if (turn !== undefined) {
          turn.end = placeOf(event);
          turn.stoppedBy = event;
        }
        continue;
      }
      const turn = event.parent_span_id === null ? undefined : bySpan.get(event.parent_span_id);
      if (turn !== undefined) readStep(turn, event, placeOf);
    }
  }

  /** Waits until the time and place the recording decided `step` (at once past what it has). */
  wait(step: PacedStep): Promise<void> | undefined {
    if (step.kind === 'workflow_step') return this.#workflowStep(step);
    const recorded = this.turns.recordedTurn(step.agentSpanId);
    const turn = recorded === undefined ? undefined : this.#bySpan.get(recorded);
    if (turn === undefined) return undefined;
    let at: Moment | undefined;
    if (step.kind === 'tool_round') {
      const rounds = this.#rounds.get(step.agentSpanId) ?? 0;
      this.#rounds.set(step.agentSpanId, rounds + 1);
      at = turn.rounds[rounds];
    } else at = (step.kind === 'model_call' ? turn.calls : turn.checks).get(step.step);
    // A step the recorded turn never decided because the stop from outside ended it first: it
    // waits for the replayed stop, which may come after other parts' answers made later.
    if (at === undefined && turn.stoppedBy !== undefined && this.stop.ended(turn.stoppedBy))
      return this.stop.stopped().then(stopped => Promise.reject(stopped));
    at ??= turn.end;
    return at === undefined ? undefined : this.clock.until(at.atMs, at.made);
  }

  /**
   * A workflow's step waits until the place the recorded workflow started it; one it never
   * started because the stop from outside ended it first waits for the replayed stop.
   */
  #workflowStep(step: PacedStep): Promise<void> | undefined {
    const workflow = this.#workflows.get(step.agent);
    const name = workflow?.steps[step.step];
    if (workflow === undefined || name === undefined) return undefined;
    const at = workflow.starts.get(name);
    if (at !== undefined) return this.clock.until(at.atMs, at.made);
    const { stoppedBy } = workflow;
    // The step then sees the stop as it starts, and starts nothing.
    if (stoppedBy !== undefined && this.stop.ended(stoppedBy))
      return this.stop.stopped().then(() => undefined);
    return undefined;
  }
}

/** Where a recorded workflow started its steps, and its end. */
interface RecordedWorkflow {
  readonly steps: readonly string[];
  readonly starts: Map<string, Moment>;
  /** Its `workflow_end`: a stop from outside may have ended it (see `ReplayedStop.ended`). */
  stoppedBy: TraceEvent | undefined;
}

/** Reads the recorded workflows: where each started its steps, and how each ended. */
function readWorkflows(
  run: readonly TraceEvent[],
  placeOf: (event: TraceEvent) => Moment,
  into: Map<string, RecordedWorkflow>,
): void {
  const bySpan = new Map<string, RecordedWorkflow>();
  for (const event of run) {
    if (event.event === 'workflow_start' && !into.has(event.workflow)) {
      const workflow = {
        steps: event.steps.map(step => step.name),
        starts: new Map(),
        stoppedBy: undefined,
      };
      into.set(event.workflow, workflow);
      bySpan.set(event.span_id, workflow);
    } else if (event.event === 'workflow_step_start' && event.parent_span_id !== null)
      bySpan.get(event.parent_span_id)?.starts.set(event.name, placeOf(event));
    else if (event.event === 'workflow_end') {
      const workflow = bySpan.get(event.span_id);
      if (workflow !== undefined) workflow.stoppedBy = event;
    }
  }
}

/**
 * Reads an event of a recorded turn (under its span). A turn's next event after it decided a step
 * is where it decided (or the `decided_made` that event carries): a model call's decision is
 * followed by the call (or a rate limit's wait for it), an answer's checks by the first event
 * after it that is not another attempt, a round's checks by the first event after its calls
 * opened.
 */
function readStep(
  turn: RecordedTurn,
  event: TraceEvent,
  placeOf: (event: TraceEvent) => Moment,
): void {
  const name = event.event;
  const attempt = name === 'retry' || (name === 'llm_start' && event.step === turn.answered);
  if (turn.answered !== undefined && !attempt) {
    // The first event after an answer (not another attempt): its checks were made by then.
    if (!turn.checks.has(turn.answered)) turn.checks.set(turn.answered, placeOf(event));
    turn.answered = undefined;
  }
  if (name === 'llm_end') turn.answered = event.step;
  if (turn.last === 'tool_start' && name !== 'tool_start') {
    // The first event after a round's calls opened: the features had decided the round by then.
    turn.rounds.push(placeOf(event));
  }
  if (name === 'llm_start') {
    if (!turn.calls.has(event.step)) turn.calls.set(event.step, placeOf(event));
    turn.step = event.step;
  } else if (name === 'rate_limit_wait') {
    // A rate limit held the next model call: the call was decided before the wait.
    if (!turn.calls.has(turn.step + 1)) turn.calls.set(turn.step + 1, placeOf(event));
  }
  turn.last = name;
}
