import type { TraceEvent, TraceEventOf } from '@agent-trace/core';
import { emptyTally, feedbackText, tallyEvent } from '@agent-trace/trace/model';
import type {
  ConversationTurnData,
  EvaluationData,
  FeedbackData,
  GraphFact,
  RunSummary,
} from './viewer-data.js';

/**
 * A run's summary counted event by event: when it started and last moved, its stop reason (the
 * latest `run_end`'s), its totals, its agents and what the agent graph reads. The one summary of
 * a run the page (over a run's events) and the served viewer's outline (as a file is read) share.
 */
export class RunSummarizer {
  readonly #id: string;
  readonly #file: string;
  readonly #tally = emptyTally();
  readonly #agents = new Set<string>();
  readonly #graph: GraphFact[] = [];
  #session = '';
  #entryAgent = '';
  #startedAt = Number.NaN;
  #lastAt = Number.NaN;
  #stopReason: string | undefined;
  #turn: ConversationTurnData | undefined;
  readonly #feedback: FeedbackData[] = [];
  readonly #evaluations: EvaluationData[] = [];

  constructor(id: string, file: string) {
    this.#id = id;
    this.#file = file;
  }

  add(event: TraceEvent): void {
    if (event.event === 'feedback') {
      this.#feedback.push(feedbackData(event));
      return;
    }
    if (event.event === 'evaluation') {
      this.#evaluations.push(evaluationData(event));
      return;
    }
    const at = Date.parse(event.time);
    if (Number.isNaN(this.#startedAt)) {
      this.#session = event.session;
      this.#entryAgent = event.agent;
      this.#startedAt = at;
      this.#lastAt = at;
    }
    // Parallel calls end out of order: the latest time is looked for, not the last event's.
    if (at > this.#lastAt) this.#lastAt = at;
    tallyEvent(this.#tally, event);
    if (event.event === 'agent_start') {
      this.#agents.add(event.agent);
      this.#graph.push({ event: 'agent_start', agent: event.agent });
    } else if (event.event === 'handoff_start') {
      const { from, to, mode } = event;
      this.#graph.push({ event: 'handoff_start', agent: event.agent, from, to, mode });
    } else if (event.event === 'run_end') {
      this.#stopReason = event.stop_reason;
      if (this.#turn !== undefined && event.output !== undefined)
        this.#turn = { ...this.#turn, answered: event.output };
    } else if (event.event === 'run_start' && event.conversation !== undefined)
      this.#turn ??= {
        conversation: event.conversation.id,
        turn: event.conversation.turn,
        ...(event.conversation.role === 'user' ? { user: true as const } : {}),
        said: event.input,
      };
  }

  /** The summary so far; `graph` is the list the summarizer keeps adding to. */
  summary(): RunSummary & { readonly lastAt: number; readonly graph: readonly GraphFact[] } {
    return {
      id: this.#id,
      session: this.#session,
      file: this.#file,
      entryAgent: this.#entryAgent,
      startedAt: this.#startedAt,
      stopReason: this.#stopReason,
      agents: [...this.#agents],
      totals: { ...this.#tally, durationMs: this.#lastAt - this.#startedAt },
      lastAt: this.#lastAt,
      graph: this.#graph,
      ...(this.#turn === undefined ? {} : { turn: this.#turn }),
      ...(this.#feedback.length === 0 ? {} : { feedback: [...this.#feedback] }),
      ...(this.#evaluations.length === 0 ? {} : { evaluations: [...this.#evaluations] }),
    };
  }
}

/** A feedback event as the page shows it. */
function feedbackData(event: TraceEventOf<'feedback'>): FeedbackData {
  const { id, score, label, comment, by, source } = event;
  return {
    id,
    ...(score === undefined ? {} : { score }),
    ...(label === undefined ? {} : { label }),
    ...(comment === undefined ? {} : { comment }),
    ...(by === undefined ? {} : { by }),
    source,
    at: Date.parse(event.time),
    text: feedbackText(event, 400),
  };
}

/** A scorer's evaluation event as the page shows it, on the span it judges. */
function evaluationData(event: TraceEventOf<'evaluation'>): EvaluationData {
  const explanation =
    event.error === undefined ? event.explanation : `threw: ${event.error.message}`;
  return {
    spanId: event.parent_span_id ?? event.span_id,
    name: event.name,
    ...(event.score === undefined ? {} : { score: event.score }),
    ...(event.label === undefined ? {} : { label: event.label }),
    ...(explanation === undefined ? {} : { explanation }),
  };
}
