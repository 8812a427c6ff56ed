import type { OpenSpan } from '../../trace/run-tracer.js';
import type { PacedStep } from './kernel-options.js';
import type { RunState } from './run-state.js';

/**
 * What the run's `pace` override has a step of `agentSpan`'s turn wait for before the features
 * decide it (a rerun holds a step of parts that went on side by side until the place it was
 * decided in the recording); undefined, at no cost, without one. The step goes on as it would
 * have without the wait, noticing a stop where the loop looks for one; a pace that knows the step
 * was never made (a stop from outside ended the turn first) rejects with that stop.
 */
export function paceStep(
  state: RunState,
  agentSpan: OpenSpan,
  kind: PacedStep['kind'],
  step: number,
): Promise<void> | undefined {
  const { pace } = state.overrides;
  if (pace === undefined) return undefined;
  return pace({ agent: agentSpan.agent, agentSpanId: agentSpan.spanId, kind, step });
}
