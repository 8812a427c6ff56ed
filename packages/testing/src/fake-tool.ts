import { tool, type Tool, type ToolContext } from '@agent-trace/core';
import { sleepOn, defined } from '@agent-trace/core/util';
import { z } from 'zod';
import { trackFake } from './fake-registry.js';

/**
 * A scripted outcome of one FakeTool call, after `latencyMs` on the run's clock (a virtual clock
 * makes it instant, and the trace still shows it).
 */
export type FakeToolStep =
  { result: unknown; latencyMs?: number } | { error: string; latencyMs?: number };

/** One recorded call of a FakeTool. */
export interface FakeToolCall {
  /** 1-based. */
  readonly index: number;
  readonly args: unknown;
  readonly callId: string;
  readonly agentName: string;
  /** What the call returned; undefined when it failed. */
  readonly result: unknown;
  /** The failure message; undefined when it succeeded. */
  readonly error: string | undefined;
  /** When the call started and ended, on the run's clock (ms since the epoch). */
  readonly startedAtMs: number;
  readonly endedAtMs: number;
}

/** Options of {@link fakeTool}. */
export interface FakeToolOptions<Input> {
  /** @defaultValue `Fake tool <name>` */
  description?: string;
  /** The schema the arguments are validated with. @defaultValue any JSON object */
  input?: z.ZodType<Input>;
  /** Outcomes for the first calls, in order. */
  steps?: readonly FakeToolStep[];
  /** Answers the calls after the scripted steps. Without it, such a call fails. */
  respond?: (args: Input, context: ToolContext) => unknown;
  /** How long every call takes on the run's clock, unless its step says otherwise. @defaultValue 0 */
  latencyMs?: number;
  timeoutMs?: number;
  /** Lets the script end with unused steps without failing the test. @defaultValue false */
  allowUnusedSteps?: boolean;
}

/** A recording tool: see {@link fakeTool}. */
export interface FakeTool<Input = unknown> extends Tool<Input, unknown> {
  readonly calls: readonly FakeToolCall[];
  /** Throws when some scripted steps were never used. */
  assertComplete(): void;
}

/**
 * A tool for tests that records every call and answers from a script (`steps`), then from
 * `respond`. A `{ error }` step makes the call fail the way a throwing tool does.
 *
 * @example
 * ```ts
 * const search = fakeTool('search', { steps: [{ result: ['doc-1'] }, { error: 'index offline' }] });
 * ```
 */
export function fakeTool<Input = Record<string, unknown>>(
  name: string,
  options: FakeToolOptions<Input> = {},
): FakeTool<Input> {
  const {
    description = `Fake tool ${name}`,
    steps = [],
    respond,
    timeoutMs,
    latencyMs = 0,
  } = options;
  const input = options.input ?? (z.record(z.string(), z.unknown()) as unknown as z.ZodType<Input>);
  const calls: FakeToolCall[] = [];
  let used = 0;
  const base = tool<Input, unknown>({
    name,
    description,
    input,
    ...defined('timeoutMs', timeoutMs),
    execute: async (args, context) => {
      const index = calls.length + 1;
      const startedAtMs = context.clock.now();
      const record = {
        index,
        args,
        callId: context.callId,
        agentName: context.agentName,
        startedAtMs,
      };
      const step = steps[used];
      if (step !== undefined) used++;
      const waitMs = step?.latencyMs ?? latencyMs;
      if (waitMs > 0) await sleepOn(context.clock, waitMs, context.abortSignal);
      try {
        const result = await answer({ name, steps, respond }, step, args, context, calls.length);
        calls.push({ ...record, result, error: undefined, endedAtMs: context.clock.now() });
        return result;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        calls.push({
          ...record,
          result: undefined,
          error: message,
          endedAtMs: context.clock.now(),
        });
        throw error;
      }
    },
  });
  const fake: FakeTool<Input> = {
    name: base.name,
    description: base.description,
    input: base.input,
    execute: (args, context) => base.execute(args, context),
    timeoutMs: base.timeoutMs,
    get definition() {
      return base.definition;
    },
    calls,
    assertComplete() {
      const unused = steps.length - used;
      if (unused > 0) {
        throw new Error(
          `FakeTool '${name}' has ${unused} unused step${unused === 1 ? '' : 's'}; it was called ${calls.length} time${calls.length === 1 ? '' : 's'}. Remove the extra steps, or find out why the agent did not call it.`,
        );
      }
    },
  };
  if (options.allowUnusedSteps !== true) trackFake(fake);
  return fake;
}

/** What a call answers: its scripted step, else `respond`, else a failure saying what to add. */
function answer<Input>(
  fake: Pick<FakeToolOptions<Input>, 'respond'> & {
    readonly name: string;
    readonly steps: readonly FakeToolStep[];
  },
  step: FakeToolStep | undefined,
  args: Input,
  context: ToolContext,
  earlierCalls: number,
): unknown {
  if (step !== undefined) {
    if ('error' in step) throw new Error(step.error);
    return step.result;
  }
  if (fake.respond !== undefined) return fake.respond(args, context);
  const { name, steps } = fake;
  throw new Error(
    `FakeTool '${name}' was called ${earlierCalls + 1} times but has ${steps.length} scripted step${steps.length === 1 ? '' : 's'} and no 'respond' function. Add a step or a respond function.`,
  );
}
