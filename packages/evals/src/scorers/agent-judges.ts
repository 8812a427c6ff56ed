import { agent, run, type LanguageModel, type TraceEvent } from '@agent-trace/core';
import { z } from 'zod';
import { asText as text, type Scorer, type ScorerInput } from '../scorer.js';

/** What the goal-success judge is told: the rubric, in the open. */
export const goalSuccessRubric =
  'You judge whether an AI agent achieved what a person asked of it. You get the request, the steps the agent took (its tool calls with their arguments and results, and its handoffs) and its final answer. Score 1 when the steps show the goal was reached (not merely claimed in the answer); 0 when it was not, or only claimed; a share in between when part of it was. Say why in one sentence.';

/** What the tool-argument judge is told: the rubric, in the open. */
export const toolArgumentRubric =
  'You judge the arguments of the tool calls an AI agent made for a request. You get the request and the calls in order, each with its arguments and result. A call is correct when its arguments follow from the request and the earlier results (no value invented, none missing, the right entity). Score the share of calls that are correct, from 0 to 1. Name the first wrong call and why in one sentence, or say all are right.';

/** What both judges answer. */
const verdict = z.object({ score: z.number().min(0).max(1), reason: z.string() });

const cut = (value: string, length = 400): string =>
  value.length > length ? `${value.slice(0, length - 1)}…` : value;

/** The run's steps as the judges read them: a line per tool call (with its result) and handoff. */
export function stepLines(trace: readonly TraceEvent[]): string[] {
  const lines: string[] = [];
  for (const event of trace) {
    if (event.event === 'tool_end')
      lines.push(
        `${lines.length + 1}. ${event.tool}(${cut(JSON.stringify(event.args ?? {}))}) → ${event.error === undefined ? cut(text(event.result)) : `error: ${event.error.message}`}`,
      );
    else if (event.event === 'handoff_start' && event.mode === 'pass_control')
      lines.push(`${lines.length + 1}. handed off from ${event.from} to ${event.to}`);
  }
  return lines;
}

/** A judge over the request, the steps and the answer; its run traced beside the case's. */
function stepJudge(
  name: string,
  rubric: string,
  model: LanguageModel,
  ask: (input: ScorerInput) => string | undefined,
  none: string,
): Scorer {
  const judge = agent({ name, model, instructions: rubric, output: verdict });
  return {
    name,
    async score(input) {
      const question = ask(input);
      if (question === undefined) return { score: 1, reason: none };
      const result = await run(judge, question, input.runOptions ?? {});
      if (result.stopReason !== 'completed' || result.output === undefined)
        throw new Error(`the judge did not answer (${result.stopReason})`);
      return result.output;
    },
  };
}

/**
 * A model judges whether the run reached the request's goal, from the steps it took and its
 * answer (`goalSuccessRubric`). Replay it from a cassette (`withCassette`) to keep CI offline.
 */
export function goalSuccessJudge({
  model,
  name = 'goal_success',
}: {
  readonly model: LanguageModel;
  readonly name?: string;
}): Scorer {
  return stepJudge(
    name,
    goalSuccessRubric,
    model,
    ({ case: evalCase, trace, output }) => {
      const steps = stepLines(trace);
      return [
        `Request: ${text(evalCase.input)}`,
        'Steps:',
        ...(steps.length === 0 ? ['(none)'] : steps),
        `Answer: ${text(output)}`,
      ].join('\n');
    },
    '',
  );
}

/**
 * A model judges the arguments of the run's tool calls against the request and the earlier
 * results (`toolArgumentRubric`); a run with no tool call scores 1 without asking it.
 */
export function toolArgumentJudge({
  model,
  name = 'tool_arguments',
}: {
  readonly model: LanguageModel;
  readonly name?: string;
}): Scorer {
  return stepJudge(
    name,
    toolArgumentRubric,
    model,
    ({ case: evalCase, trace }) => {
      const calls = stepLines(trace).filter(line => !/^\d+\. handed off/.test(line));
      return calls.length === 0
        ? undefined
        : [`Request: ${text(evalCase.input)}`, 'Calls:', ...calls].join('\n');
    },
    'the run made no tool call',
  );
}
