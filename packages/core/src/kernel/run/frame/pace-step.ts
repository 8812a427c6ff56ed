import type { OpenSpan } from '../../trace/run-tracer.js';
import { throwIfAborted } from '../../util/abort.js';
import type { PacedStep } from './run-options.js';
import type { RunState } from './run-state.js';

/**
 * What the run's `pace` override has a step of `agentSpan`'s turn wait for before the features
 * decide it (a rerun holds a step of parts that went on side by side until the place it was
 * decided in the recording); undefined, at no cost, without one. A stop from outside that came
 * meanwhile rejects it, as it would have stopped the step.
 */
export function paceStep(
  state: RunState,
  agentSpan: OpenSpan,
  kind: PacedStep['kind'],
  step: number,
): Promise<void> | undefined {
  const { pace } = state.overrides;
  if (pace === undefined) return undefined;
  const paced = pace({ agent: agentSpan.agent, agentSpanId: agentSpan.spanId, kind, step });
  // A stop that came while the step waited stops it before the features decide.
  return paced?.then(() => throwIfAborted(state.signal));
}
