/**
 * `import '@agent-trace/testing/vitest'` (in a vitest `setupFiles` entry) registers the agent-trace
 * matchers and checks, after every test, that each FakeLLM and FakeTool made during it used its
 * whole script: an unused step fails the test. Pass `allowUnusedSteps: true` to a fake that is
 * meant to stop early.
 */
import { afterEach, beforeEach, expect } from 'vitest';
import { startTrackingFakes, takeTrackedFakes } from '../fake-registry.js';
import { agentMatchers, type ToolSequenceMode } from './matchers.js';

expect.extend(agentMatchers);
startTrackingFakes();
beforeEach(() => {
  takeTrackedFakes();
});
afterEach(() => {
  const problems: string[] = [];
  for (const fake of takeTrackedFakes()) {
    try {
      fake.assertComplete();
    } catch (error) {
      problems.push(error instanceof Error ? error.message : String(error));
    }
  }
  if (problems.length > 0) throw new Error(problems.join('\n'));
});

/** The matchers agent-trace adds to `expect`. */
export interface AgentTraceMatchers<R = unknown> {
  /** The tool was called, with arguments containing `partialArgs` when given. */
  toHaveCalledTool(name: string, partialArgs?: Record<string, unknown>): R;
  /** The tool was called exactly `times` times. */
  toHaveCalledToolTimes(name: string, times: number): R;
  /** The tools called match `names` (`strict` by default; `inOrder`, `unordered`, `subset`). */
  toHaveToolSequence(names: readonly string[], options?: { mode?: ToolSequenceMode }): R;
  /** Control passed (or was delegated) to `agent`. */
  toHaveHandedOffTo(agent: string, options?: { from?: string }): R;
  /** The run stopped for `reason`. */
  toHaveStopReason(reason: string): R;
  /** The number of model calls is within bounds. */
  toHaveStepCount(bounds: { min?: number; max?: number }): R;
  /** No tool, model call or run failed. */
  toHaveNoErrors(): R;
  /** Tokens used stay within `limit` (for one agent when given). */
  toStayWithinTokens(limit: number, options?: { agent?: string }): R;
  /** A call of `tool` waited for approval (with arguments containing `partialArgs`, when given). */
  toHaveRequestedApproval(tool: string, partialArgs?: Record<string, unknown>): R;
  /** A call of `tool` was approved, rejected or edited (`decision`, when given). */
  toHaveResolvedApproval(tool: string, decision?: 'approved' | 'rejected' | 'edited'): R;
  /** The trace passes the `agent-trace validate` rules. */
  toBeWellFormedTrace(): R;
  /** The normalised trace equals `golden/<name>.jsonl`; must be awaited. */
  toMatchGoldenTrace(name: string, options?: { directory?: string }): Promise<void>;
}

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-explicit-any
  interface Matchers<T = any> extends AgentTraceMatchers<T> {}
}

export { agentMatchers } from './matchers.js';
export type { ToolSequenceMode } from './matchers.js';
export { describeSubject } from './describe-subject.js';
export { toSubject } from './subject.js';
export type { Subject, SubjectToolCall } from './subject.js';
