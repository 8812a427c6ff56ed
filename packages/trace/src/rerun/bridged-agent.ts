import type { TraceEvent } from '@agent-trace/core';
import type { RerunReport } from './rerun-trace.js';

/**
 * An agent of another framework as its bridge wraps it (`aiSdkAgent` of `@agent-trace/ai-sdk`):
 * it reruns itself against a recording, so `agent-trace rerun --agent` takes a module exporting
 * one without knowing the framework.
 */
export interface BridgedAgent {
  /** The framework, e.g. `ai-sdk`. */
  readonly framework: string;
  readonly rerun: (
    trace: readonly TraceEvent[] | string,
    options: { readonly liveTools?: boolean },
  ) => Promise<RerunReport<unknown>>;
}

/** True when `value` is a {@link BridgedAgent}. */
export function isBridgedAgent(value: unknown): value is BridgedAgent {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { framework?: unknown }).framework === 'string' &&
    typeof (value as { rerun?: unknown }).rerun === 'function'
  );
}
