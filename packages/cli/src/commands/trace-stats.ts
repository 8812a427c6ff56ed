import type { TraceEvent } from '@agent-trace/core';

/** Figures for one agent, tool or model. */
export interface UsageFigures {
  calls: number;
  errors: number;
  retries: number;
  p50Ms: number;
  p95Ms: number;
  tokPrompt: number;
  tokCompletion: number;
  /** US dollars of the priced calls. */
  costUsd: number;
  /** Calls whose cost is unknown (their model has no price). */
  unpricedCalls: number;
}

/** A run's figures by agent, tool and model, keyed by the names in the trace. */
export interface TraceStats {
  readonly run: string;
  readonly stopReason: string | undefined;
  /** Spans an exporter (OTLP) failed to send or dropped during the run, when it reported any. */
  readonly export:
    | { readonly droppedSpans: number; readonly failedSpans: number; readonly pendingSpans: number }
    | undefined;
  readonly agents: ReadonlyMap<string, UsageFigures>;
  readonly tools: ReadonlyMap<string, UsageFigures>;
  readonly models: ReadonlyMap<string, UsageFigures>;
}

/** The value below which `fraction` of the sorted values fall (nearest rank). */
function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? 0;
}

class Tally {
  readonly #durations = new Map<string, number[]>();
  readonly #figures = new Map<string, Omit<UsageFigures, 'p50Ms' | 'p95Ms'>>();

  add(
    key: string,
    change: {
      durationMs?: number;
      error?: boolean;
      retry?: boolean;
      tokPrompt?: number;
      tokCompletion?: number;
      call?: boolean;
      costUsd?: number;
      unpricedCalls?: number;
    },
  ): void {
    const figures = this.#figures.get(key) ?? {
      calls: 0,
      errors: 0,
      retries: 0,
      tokPrompt: 0,
      tokCompletion: 0,
      costUsd: 0,
      unpricedCalls: 0,
    };
    figures.costUsd += change.costUsd ?? 0;
    figures.unpricedCalls += change.unpricedCalls ?? 0;
    if (change.call === true) figures.calls++;
    if (change.error === true) figures.errors++;
    if (change.retry === true) figures.retries++;
    figures.tokPrompt += change.tokPrompt ?? 0;
    figures.tokCompletion += change.tokCompletion ?? 0;
    this.#figures.set(key, figures);
    if (change.durationMs !== undefined) {
      const list = this.#durations.get(key) ?? [];
      list.push(change.durationMs);
      this.#durations.set(key, list);
    }
  }

  result(): Map<string, UsageFigures> {
    const out = new Map<string, UsageFigures>();
    for (const [key, figures] of this.#figures) {
      const sorted = [...(this.#durations.get(key) ?? [])].sort((left, right) => left - right);
      out.set(key, { ...figures, p50Ms: percentile(sorted, 0.5), p95Ms: percentile(sorted, 0.95) });
    }
    return out;
  }
}

/** What one finished agent turn or model call adds to its row. */
function callFigures(event: {
  duration_ms: number;
  error?: unknown;
  tok_prompt: number;
  tok_completion: number;
}) {
  return {
    call: true,
    durationMs: event.duration_ms,
    error: event.error !== undefined,
    tokPrompt: event.tok_prompt,
    tokCompletion: event.tok_completion,
  };
}

interface RunTally {
  readonly agents: Tally;
  readonly tools: Tally;
  readonly models: Tally;
  export: TraceStats['export'];
  /** Set when the run paused (`interrupted`): it stays open, as a resumed part may follow. */
  paused?: string;
}

/**
 * Figures of every run, gathered event by event: calls, errors, retries, p50/p95 durations,
 * tokens. A run's durations are folded into its figures when it ends, so only open runs keep them;
 * `ready()` hands over the runs that ended, in the order they began, and forgets them.
 */
export class TraceStatsCollector {
  readonly #open = new Map<string, RunTally>();
  /** Runs in the order they began: their figures once they ended, undefined while open. */
  readonly #slots = new Map<string, TraceStats | undefined>();
  /** `provider/model` by model id, as seen so far: retries name the model id only. */
  readonly #modelKeys = new Map<string, string>();

  add(event: TraceEvent): void {
    const run = this.#tallyOf(event.run);
    if (event.event === 'run_end') {
      if (event.export !== undefined)
        run.export = {
          droppedSpans: event.export.dropped_spans,
          failedSpans: event.export.failed_spans,
          pendingSpans: event.export.pending_spans ?? 0,
        };
      // A paused run may go on later in the file (the same run id, `resumed`): keep it open.
      if (event.stop_reason === 'interrupted') run.paused = event.stop_reason;
      else this.#close(event.run, event.stop_reason);
      return;
    }
    tallyEvent(run, event, this.#modelKeys);
  }

  /**
   * The figures of the runs that ended and that every earlier-begun run precedes, in the order
   * they began; the collector keeps nothing of them after.
   */
  ready(): TraceStats[] {
    const out: TraceStats[] = [];
    // A Map iterates in insertion order, the order the runs began; deleting while iterating is safe.
    for (const [run, stats] of this.#slots) {
      if (stats === undefined) break;
      out.push(stats);
      this.#slots.delete(run);
    }
    return out;
  }

  /** At the end of the trace: closes the runs still open (paused or unsealed) and hands over the rest. */
  finish(): TraceStats[] {
    for (const [run, tally] of [...this.#open]) this.#close(run, tally.paused);
    return this.ready();
  }

  #tallyOf(run: string): RunTally {
    let tally = this.#open.get(run);
    if (tally === undefined) {
      tally = { agents: new Tally(), tools: new Tally(), models: new Tally(), export: undefined };
      this.#open.set(run, tally);
      // Reserve the run's place, so runs are listed in the order they began.
      if (!this.#slots.has(run)) this.#slots.set(run, undefined);
    }
    return tally;
  }

  #close(run: string, stopReason: string | undefined): void {
    const tally = this.#open.get(run);
    if (tally === undefined) return;
    this.#open.delete(run);
    this.#slots.set(run, {
      run,
      stopReason,
      export: tally.export,
      agents: tally.agents.result(),
      tools: tally.tools.result(),
      models: tally.models.result(),
    });
  }
}

/** What one event adds to a tally of runs (model calls, tool calls, agents' turns, retries). */
function tallyEvent(
  run: Pick<RunTally, 'agents' | 'tools' | 'models'>,
  event: TraceEvent,
  modelKeys: Map<string, string>,
): void {
  switch (event.event) {
    case 'agent_end':
      run.agents.add(event.agent, {
        ...callFigures(event),
        costUsd: event.cost?.usd ?? 0,
        unpricedCalls: event.cost?.unpriced_calls ?? 0,
      });
      break;
    case 'llm_end':
      modelKeys.set(event.model, `${event.provider}/${event.model}`);
      run.models.add(`${event.provider}/${event.model}`, {
        ...callFigures(event),
        costUsd: event.cost_usd ?? 0,
        // A failed call costs nothing; an answered one with no price has an unknown cost.
        unpricedCalls: event.error === undefined && event.cost_usd === undefined ? 1 : 0,
      });
      break;
    case 'tool_end':
      run.tools.add(event.tool, {
        call: true,
        durationMs: event.duration_ms,
        error: event.error !== undefined,
      });
      break;
    case 'retry':
      if (event.target === 'tool') run.tools.add(event.name, { retry: true });
      else run.models.add(modelKeys.get(event.name) ?? event.name, { retry: true });
      break;
    default:
      break;
  }
}

/**
 * Figures across every run read (of one trace or of several): what `stats` of several files
 * totals. It keeps every call's duration, for the percentiles across all of them.
 */
export class TotalStatsCollector {
  readonly #tally = { agents: new Tally(), tools: new Tally(), models: new Tally() };
  readonly #modelKeys = new Map<string, string>();
  readonly #runs = new Set<string>();

  add(event: TraceEvent): void {
    if (event.event === 'run_start') this.#runs.add(event.run);
    tallyEvent(this.#tally, event, this.#modelKeys);
  }

  /** The figures of every run so far, as one entry named `(N runs)`. */
  result(): TraceStats {
    return {
      run: `(${this.#runs.size} run${this.#runs.size === 1 ? '' : 's'})`,
      stopReason: undefined,
      export: undefined,
      agents: this.#tally.agents.result(),
      tools: this.#tally.tools.result(),
      models: this.#tally.models.result(),
    };
  }
}

/** A run's figures as plain JSON: objects keyed by name (`__proto__` included, as own keys). */
export function traceStatsJson(stats: TraceStats): Record<string, unknown> {
  return {
    run: stats.run,
    stopReason: stats.stopReason,
    export: stats.export,
    agents: Object.fromEntries(stats.agents),
    tools: Object.fromEntries(stats.tools),
    models: Object.fromEntries(stats.models),
  };
}
