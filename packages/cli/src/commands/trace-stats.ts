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
}

/** A run's figures by agent, tool and model. */
export interface TraceStats {
  readonly run: string;
  readonly stopReason: string | undefined;
  /** Spans an exporter (OTLP) failed to send or dropped during the run, when it reported any. */
  readonly export:
    | { readonly droppedSpans: number; readonly failedSpans: number; readonly pendingSpans: number }
    | undefined;
  readonly agents: Record<string, UsageFigures>;
  readonly tools: Record<string, UsageFigures>;
  readonly models: Record<string, UsageFigures>;
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
    },
  ): void {
    const figures = this.#figures.get(key) ?? {
      calls: 0,
      errors: 0,
      retries: 0,
      tokPrompt: 0,
      tokCompletion: 0,
    };
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

  result(): Record<string, UsageFigures> {
    const out: Record<string, UsageFigures> = {};
    for (const [key, figures] of this.#figures) {
      const sorted = [...(this.#durations.get(key) ?? [])].sort((left, right) => left - right);
      out[key] = { ...figures, p50Ms: percentile(sorted, 0.5), p95Ms: percentile(sorted, 0.95) };
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

/** Figures of every run in the events: calls, errors, retries, p50/p95 durations, tokens. */
export function traceStats(events: readonly TraceEvent[]): TraceStats[] {
  const runs = new Map<
    string,
    {
      agents: Tally;
      tools: Tally;
      models: Tally;
      stopReason: string | undefined;
      export: TraceStats['export'];
    }
  >();
  /** `provider/model` by model id, as seen so far: retries name the model id only. */
  const modelKeys = new Map<string, string>();
  for (const event of events) {
    let run = runs.get(event.run);
    if (run === undefined) {
      run = {
        agents: new Tally(),
        tools: new Tally(),
        models: new Tally(),
        stopReason: undefined,
        export: undefined,
      };
      runs.set(event.run, run);
    }
    switch (event.event) {
      case 'agent_end':
        run.agents.add(event.agent, callFigures(event));
        break;
      case 'llm_end':
        modelKeys.set(event.model, `${event.provider}/${event.model}`);
        run.models.add(`${event.provider}/${event.model}`, callFigures(event));
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
      case 'run_end':
        run.stopReason = event.stop_reason;
        if (event.export !== undefined)
          run.export = {
            droppedSpans: event.export.dropped_spans,
            failedSpans: event.export.failed_spans,
            pendingSpans: event.export.pending_spans ?? 0,
          };
        break;
      default:
        break;
    }
  }
  return [...runs].map(([id, run]) => ({
    run: id,
    stopReason: run.stopReason,
    export: run.export,
    agents: run.agents.result(),
    tools: run.tools.result(),
    models: run.models.result(),
  }));
}
