import {
  run,
  steppingClock,
  stopReasons,
  type AnyAgent,
  type LanguageModel,
  type TraceEvent,
} from '@agent-trace/core';
import { memorySink, validateTrace } from '@agent-trace/trace';
import fc from 'fast-check';
import type { FakeAnswerStep, FakeErrorStep } from '../fake-llm-step.js';
import { fakeLLM } from '../fake-llm.js';
import { behaviourArbitrary, type BehaviourVocabulary } from './arbitraries.js';
import { formatBehaviour, stepAt, type Behaviour } from './behaviour.js';
import { defined } from '@agent-trace/core/util';

/** The bounds every run must stay within. */
export interface TerminationBounds {
  /** Model calls per agent turn, as in the agents' `limits.maxSteps`. */
  readonly maxSteps: number;
  /**
   * Attempts per step: 1 + retries (× 2 with a fallback model), as in `retry.modelAttempts`.
   * @defaultValue 3
   */
  readonly modelAttempts?: number;
  /** First attempts of one tool per agent turn. @defaultValue 5 */
  readonly maxToolCallsPerTool?: number;
  /** Handoffs in a row. @defaultValue 3 */
  readonly maxHandoffDepth?: number;
}

/** Options of {@link assertTerminates}. */
export interface AssertTerminatesOptions extends BehaviourVocabulary {
  readonly limits: TerminationBounds;
  /** @defaultValue 100 */
  readonly numRuns?: number;
  /** Replays a failure: the seed printed with it. @defaultValue random */
  readonly seed?: number;
  /**
   * Model calls in one run after which it counts as not terminating and is aborted.
   * @defaultValue 20 × maxSteps × modelAttempts
   */
  readonly watchdogModelCalls?: number;
}

/** Hands each agent of the graph under test its scripted model. */
export interface ScriptedModels {
  /** The model for agent `name`: the next generated behaviour, in order of first request. */
  for(name: string): LanguageModel;
}

/** Builds the agent graph under test; called once per generated case, with fresh models. */
export type BuildAgent = (models: ScriptedModels) => AnyAgent;

interface Outcome {
  readonly violations: readonly string[];
  readonly agents: readonly string[];
}

/**
 * Checks that every run of the agent built by `build` terminates, whatever the model does: for
 * each generated behaviour (endless tool calls, repeats, oscillation, unknown tools, malformed
 * arguments, handoff ping-pong, 429/5xx bursts, empty and huge replies) the run ends with a known
 * stop reason within its bounds (model calls ≤ maxSteps × attempts per agent turn, first tool calls
 * ≤ the per-tool limit, handoff depth ≤ the maximum), its trace is well formed (every start has its
 * end, seq contiguous, sealed), and no exception escapes. A failure shows the shrunk behaviour as
 * ready-to-paste FakeLLM scripts, and the seed to replay it.
 */
export async function assertTerminates(
  build: BuildAgent,
  options: AssertTerminatesOptions,
): Promise<void> {
  const { limits, numRuns = 100 } = options;
  const attempts = limits.modelAttempts ?? 3;
  const watchdog = options.watchdogModelCalls ?? 20 * limits.maxSteps * attempts;
  const arbitrary = fc.array(behaviourArbitrary(options), { minLength: 1, maxLength: 4 });
  const property = fc.asyncProperty(arbitrary, async behaviours => {
    const { violations } = await runOnce(build, behaviours, limits, watchdog);
    if (violations.length > 0) throw new Error(violations.join('\n'));
  });
  const details = await fc.check(property, {
    numRuns,
    ...defined('seed', options.seed),
  });
  if (!details.failed || details.counterexample === null) return;
  const [behaviours] = details.counterexample;
  const { violations, agents } = await runOnce(build, behaviours, limits, watchdog);
  const scripts = behaviours
    .map((behaviour, index) =>
      formatBehaviour(behaviour, { agent: agents[index] ?? `(agent ${index + 1}, not reached)` }),
    )
    .join('\n\n');
  throw new Error(
    `assertTerminates: a run broke its bounds after ${details.numRuns} case${details.numRuns === 1 ? '' : 's'}:\n  ${violations.join('\n  ')}\n\nReplay it with { seed: ${details.seed} } (shrunk ${details.numShrinks} time${details.numShrinks === 1 ? '' : 's'}), or paste these scripts into a test:\n\n${scripts}`,
  );
}

async function runOnce(
  build: BuildAgent,
  behaviours: readonly Behaviour[],
  limits: TerminationBounds,
  watchdog: number,
): Promise<Outcome> {
  const agents: string[] = [];
  const controller = new AbortController();
  let modelCalls = 0;
  const models: ScriptedModels = {
    for(name) {
      const behaviour = behaviours[agents.length % behaviours.length] as Behaviour;
      agents.push(name);
      return fakeLLM([], {
        modelId: `scripted-${name}`,
        allowUnusedSteps: true,
        onUnexpectedCall: call => {
          if (++modelCalls > watchdog) controller.abort('watchdog');
          return (
            (stepAt(behaviour, call.index - 1) as FakeAnswerStep | FakeErrorStep | undefined) ?? {
              error: { status: 400, message: 'The generated script ended.' },
            }
          );
        },
      });
    },
  };
  const sink = memorySink();
  const violations: string[] = [];
  let stopReason: string | undefined;
  try {
    const result = await run(build(models), 'property test input', {
      trace: sink,
      signal: controller.signal,
      clock: steppingClock({ stepMs: 0 }),
      random: () => 0.5,
    });
    stopReason = result.stopReason;
  } catch (error) {
    violations.push(
      `an exception escaped the run: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (controller.signal.aborted) {
    violations.push(
      `the run did not terminate: it was still calling models after ${watchdog} model calls`,
    );
  }
  if (stopReason !== undefined && !stopReasons.includes(stopReason as never)) {
    violations.push(`unknown stop reason '${stopReason}'`);
  }
  violations.push(...checkBounds(sink.events, limits));
  for (const problem of validateTrace(sink.events).problems) {
    violations.push(`trace: ${problem.kind}: ${problem.message}`);
  }
  return { violations, agents };
}

function checkBounds(events: readonly TraceEvent[], limits: TerminationBounds): string[] {
  const violations: string[] = [];
  const attempts = limits.modelAttempts ?? 3;
  const maxCalls = limits.maxSteps * attempts;
  const perTool = limits.maxToolCallsPerTool ?? 5;
  const maxDepth = limits.maxHandoffDepth ?? 3;
  const llmCalls = new Map<string, number>();
  const toolCalls = new Map<string, number>();
  const agentOf = new Map<string, string>();
  for (const event of events) {
    if (event.event === 'agent_start') agentOf.set(event.span_id, event.agent);
    const turn = event.parent_span_id ?? '';
    if (event.event === 'llm_start') llmCalls.set(turn, (llmCalls.get(turn) ?? 0) + 1);
    if (event.event === 'tool_start' && event.attempt === undefined) {
      const key = `${turn}\u0000${event.tool}`;
      toolCalls.set(key, (toolCalls.get(key) ?? 0) + 1);
    }
    if (event.event === 'handoff_end' && event.error === undefined && event.depth > maxDepth) {
      violations.push(
        `handoff ${event.from} → ${event.to} went to depth ${event.depth}; at most ${maxDepth} allowed`,
      );
    }
  }
  for (const [turn, count] of llmCalls) {
    if (count > maxCalls) {
      violations.push(
        `agent '${agentOf.get(turn) ?? '?'}' made ${count} model calls in one turn; at most ${maxCalls} allowed (${limits.maxSteps} steps × ${attempts} attempts)`,
      );
    }
  }
  for (const [key, count] of toolCalls) {
    const [turn = '', tool = ''] = key.split('\u0000');
    if (count > perTool) {
      violations.push(
        `agent '${agentOf.get(turn) ?? '?'}' ran tool '${tool}' ${count} times in one turn; at most ${perTool} allowed`,
      );
    }
  }
  return violations;
}
