import { validateTrace } from '@agent-trace/trace';
import { expect, type MatcherState } from 'vitest';
import { compareGoldenTrace, GoldenTraceMismatchError } from '../golden/golden-trace.js';
import { describeSubject } from './describe-subject.js';
import { toSubject, type Subject } from './subject.js';

/** How `toHaveToolSequence` compares the tools called with the names given. */
export type ToolSequenceMode = 'strict' | 'inOrder' | 'unordered' | 'subset';

interface Result {
  pass: boolean;
  message: () => string;
  actual?: unknown;
  expected?: unknown;
}

const names = (subject: Subject): string[] => subject.toolCalls.map(call => call.name);
const list = (items: readonly string[]): string =>
  items.length === 0 ? '(none)' : items.join(', ');

function verdict(
  state: MatcherState,
  pass: boolean,
  subject: Subject,
  claim: string,
  details = '',
): Result {
  return {
    pass,
    message: () =>
      `expected the ${subject.kind} ${state.isNot ? 'not ' : ''}${claim}${details === '' ? '' : `; ${details}`}\n\n${describeSubject(subject)}`,
  };
}

function inOrder(actual: readonly string[], expected: readonly string[]): boolean {
  let position = 0;
  for (const name of actual) if (name === expected[position]) position++;
  return position === expected.length;
}

function counts(items: readonly string[]): Map<string, number> {
  const map = new Map<string, number>();
  for (const item of items) map.set(item, (map.get(item) ?? 0) + 1);
  return map;
}

/** The agent-trace matchers, for `expect.extend` (`@agent-trace/testing/vitest` registers them). */
export const agentMatchers = {
  /** The tool was called (with arguments that contain `partialArgs`, when given). */
  toHaveCalledTool(
    this: MatcherState,
    received: unknown,
    name: string,
    partialArgs?: Record<string, unknown>,
  ): Result {
    const subject = toSubject(received);
    const calls = subject.toolCalls.filter(call => call.name === name);
    const matching =
      partialArgs === undefined
        ? calls
        : calls.filter(call => this.equals(call.args, expect.objectContaining(partialArgs)));
    const claim = `to have called tool '${name}'${partialArgs === undefined ? '' : ` with ${JSON.stringify(partialArgs)}`}`;
    const details =
      calls.length === 0
        ? `tools called: ${list(names(subject))}`
        : `'${name}' was called ${calls.length} time${calls.length === 1 ? '' : 's'}`;
    return {
      ...verdict(this, matching.length > 0, subject, claim, details),
      actual: calls.map(call => call.args),
      expected: partialArgs,
    };
  },

  /** A call of `tool` waited for approval, with arguments containing `partialArgs` when given. */
  toHaveRequestedApproval(
    this: MatcherState,
    received: unknown,
    tool: string,
    partialArgs?: Record<string, unknown>,
  ): Result {
    const subject = toSubject(received);
    const requested = subject.approvals.requested.filter(approval => approval.tool === tool);
    const matching =
      partialArgs === undefined
        ? requested
        : requested.filter(approval =>
            this.equals(approval.args, expect.objectContaining(partialArgs)),
          );
    const all = subject.approvals.requested.map(approval => approval.tool);
    return verdict(
      this,
      matching.length > 0,
      subject,
      `to have asked approval for '${tool}'${partialArgs === undefined ? '' : ` with ${JSON.stringify(partialArgs)}`}`,
      `approvals asked: ${list(all)}`,
    );
  },

  /** A call of `tool` was decided on (`decision`: approved, rejected or edited, when given). */
  toHaveResolvedApproval(
    this: MatcherState,
    received: unknown,
    tool: string,
    decision?: 'approved' | 'rejected' | 'edited',
  ): Result {
    const subject = toSubject(received);
    const resolved = subject.approvals.resolved.filter(
      approval =>
        approval.tool === tool && (decision === undefined || approval.decision === decision),
    );
    const all = subject.approvals.resolved.map(
      approval =>
        `${approval.tool} ${approval.decision}${approval.by === undefined ? '' : ` by ${approval.by}`}`,
    );
    return verdict(
      this,
      resolved.length > 0,
      subject,
      `to have ${decision ?? 'decided'} the call of '${tool}'`,
      `decisions: ${list(all)}`,
    );
  },

  /** The tool was called exactly `times` times. */
  toHaveCalledToolTimes(
    this: MatcherState,
    received: unknown,
    name: string,
    times: number,
  ): Result {
    const subject = toSubject(received);
    const count = subject.toolCalls.filter(call => call.name === name).length;
    return {
      ...verdict(
        this,
        count === times,
        subject,
        `to have called tool '${name}' ${times} time${times === 1 ? '' : 's'}`,
        `it was called ${count} time${count === 1 ? '' : 's'}`,
      ),
      actual: count,
      expected: times,
    };
  },

  /**
   * The tools were called as `expected` says. `strict`: exactly these, in this order; `inOrder`:
   * these in this order, others allowed between; `unordered`: exactly these, any order;
   * `subset`: at least these, any order.
   */
  toHaveToolSequence(
    this: MatcherState,
    received: unknown,
    expected: readonly string[],
    options: { mode?: ToolSequenceMode } = {},
  ): Result {
    const { mode = 'strict' } = options;
    const subject = toSubject(received);
    const actual = names(subject);
    let pass: boolean;
    if (mode === 'strict')
      pass =
        actual.length === expected.length &&
        actual.every((name, index) => name === expected[index]);
    else if (mode === 'inOrder') pass = inOrder(actual, expected);
    else {
      const have = counts(actual);
      const want = counts(expected);
      pass =
        mode === 'unordered'
          ? actual.length === expected.length &&
            [...want].every(([name, count]) => have.get(name) === count)
          : [...want].every(([name, count]) => (have.get(name) ?? 0) >= count);
    }
    return {
      ...verdict(
        this,
        pass,
        subject,
        `to have the tool sequence [${expected.join(', ')}] (${mode})`,
        `the tools called were [${actual.join(', ')}]`,
      ),
      actual,
      expected,
    };
  },

  /** Control passed (or was delegated) to `agent`, from `options.from` when given. */
  toHaveHandedOffTo(
    this: MatcherState,
    received: unknown,
    agent: string,
    options: { from?: string } = {},
  ): Result {
    const subject = toSubject(received);
    const pass = subject.handoffs.some(
      handoff =>
        handoff.to === agent && (options.from === undefined || handoff.from === options.from),
    );
    const seen = subject.handoffs.map(handoff => `${handoff.from} → ${handoff.to}`);
    return verdict(
      this,
      pass,
      subject,
      `to have handed off to '${agent}'${options.from === undefined ? '' : ` from '${options.from}'`}`,
      `handoffs: ${list(seen)}`,
    );
  },

  /** The run stopped for `reason`. */
  toHaveStopReason(this: MatcherState, received: unknown, reason: string): Result {
    const subject = toSubject(received);
    return {
      ...verdict(
        this,
        subject.stopReason === reason,
        subject,
        `to have stopped with '${reason}'`,
        `it stopped with '${subject.stopReason ?? '(no stop reason)'}'`,
      ),
      actual: subject.stopReason,
      expected: reason,
    };
  },

  /** The number of model calls is within `min` and `max`. */
  toHaveStepCount(
    this: MatcherState,
    received: unknown,
    bounds: { min?: number; max?: number },
  ): Result {
    const subject = toSubject(received);
    const { min = 0, max = Number.POSITIVE_INFINITY } = bounds;
    const range =
      bounds.max === undefined
        ? `at least ${min}`
        : bounds.min === undefined
          ? `at most ${max}`
          : `between ${min} and ${max}`;
    return verdict(
      this,
      subject.steps >= min && subject.steps <= max,
      subject,
      `to have ${range} steps`,
      `it has ${subject.steps}`,
    );
  },

  /** No tool, model call or run failed. */
  toHaveNoErrors(this: MatcherState, received: unknown): Result {
    const subject = toSubject(received);
    return verdict(
      this,
      subject.errors.length === 0,
      subject,
      'to have no errors',
      subject.errors.length === 0 ? 'it has none' : `errors:\n    ${subject.errors.join('\n    ')}`,
    );
  },

  /** Tokens used (prompt + completion) stay within `limit`, for one agent when `agent` is given. */
  toStayWithinTokens(
    this: MatcherState,
    received: unknown,
    limit: number,
    options: { agent?: string } = {},
  ): Result {
    const subject = toSubject(received);
    const used =
      options.agent === undefined
        ? [...subject.tokensByAgent.values()].reduce((sum, tokens) => sum + tokens, 0)
        : (subject.tokensByAgent.get(options.agent) ?? 0);
    const who = options.agent === undefined ? '' : ` for agent '${options.agent}'`;
    return verdict(
      this,
      used <= limit,
      subject,
      `to stay within ${limit} tokens${who}`,
      `it used ${used}`,
    );
  },

  /** The trace follows the `agent-trace validate` rules: seq, pairing, parents, the seal. */
  toBeWellFormedTrace(this: MatcherState, received: unknown): Result {
    const subject = toSubject(received);
    if (subject.events === undefined) {
      throw new TypeError(
        'toBeWellFormedTrace() needs a trace: an array of events or a memorySink.',
      );
    }
    const { problems } = validateTrace(subject.events);
    const listed = problems.map(problem => `${problem.kind}: ${problem.message}`).join('\n    ');
    return verdict(
      this,
      problems.length === 0,
      subject,
      'to be a well-formed trace',
      problems.length === 0 ? 'it is' : `problems:\n    ${listed}`,
    );
  },

  /**
   * The trace, normalised, equals `golden/<name>.jsonl`. Written instead with `vitest -u` or
   * `UPDATE_GOLDEN=1` (never in CI). Awaited: `await expect(trace).toMatchGoldenTrace('name')`.
   */
  toMatchGoldenTrace(
    this: MatcherState,
    received: unknown,
    name: string,
    options: { directory?: string } = {},
  ): Promise<Result> {
    const subject = toSubject(received);
    if (subject.events === undefined) {
      throw new TypeError(
        'toMatchGoldenTrace() needs a trace: an array of events or a memorySink.',
      );
    }
    const snapshot = (this as unknown as { snapshotState?: { _updateSnapshot?: string } })
      .snapshotState;
    // compareGoldenTrace never writes in CI, whatever it is asked.
    const update = snapshot?._updateSnapshot === 'all' || process.env.UPDATE_GOLDEN === '1';
    try {
      compareGoldenTrace(name, subject.events, { ...options, update });
      return Promise.resolve({
        pass: true,
        message: () => `expected the trace not to match golden trace '${name}'`,
      });
    } catch (error) {
      if (!(error instanceof GoldenTraceMismatchError)) throw error;
      return Promise.resolve({ pass: false, message: () => error.message });
    }
  },
};
