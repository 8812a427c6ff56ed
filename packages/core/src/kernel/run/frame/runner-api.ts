/**
 * The kernel's API for runners: what `run`, `stream` and `resume` (`runner/`) and workflows and
 * planning (`workflow/`) build on — open, pause, resume and seal a run, and run an agent's turn
 * in it. A runner imports nothing else of `kernel/run/` but the seam (`feature.ts`); lint holds it.
 */
export { turnToEnd } from '../turn/turn-to-end.js';
export type { AgentOutcome, AgentStart, PausedTurn } from '../turn/agent-outcome.js';
export { pausedRun, type PausedRun } from './create-run-state.js';
export { resumedAgentStart } from '../pause/resumed-start.js';
export { forkedFromFields, openRun, type RunEnding } from './run-frame.js';
export { runLoop } from './run-loop.js';
export type { KernelOptions, ResumeOnceOptions } from './kernel-options.js';
export type { RunResult } from './run-result.js';
export {
  checkDecisions,
  openRunState,
  openState,
  sealState,
  type RunStateSnapshot,
} from '../pause/run-snapshot.js';
export { withTracer, type RunState } from './run-state.js';
export { toTraceError } from './to-trace-error.js';
