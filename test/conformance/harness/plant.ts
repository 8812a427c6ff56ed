/** Plants a change in a shape's code: its instructions, a tool's description or output, a tool gone. */
import { run, tool, type AnyAgent, type AnyTool, type RunOptions } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import { jsonlSink } from '@agent-trace/trace';
import { expect } from 'vitest';
import type { z } from 'zod';
import type { Change, ForkCheck, Shape } from './shape.js';

/** `value`, after `ms` milliseconds: a tool that takes its time, as real ones do. */
export const after = <T>(ms: number, value: T): Promise<T> =>
  new Promise<T>(resolve => setTimeout(() => resolve(value), ms));

/** The instructions, changed when `change` is `instructions`. */
export function instructions(change: Change | undefined, text: string): string {
  return change === 'instructions' ? `${text} Always answer in French.` : text;
}

/**
 * A tool, its description changed when `change` is `tool description`, its output when `change`
 * is `tool output` (`changed` is what it returns then).
 */
export function plantedTool<Input>(
  change: Change | undefined,
  options: {
    name: string;
    description: string;
    input: z.ZodType<Input>;
    execute: (input: Input) => unknown;
    changed?: (input: Input) => unknown;
  },
): AnyTool {
  const { changed = () => 'something else' } = options;
  return tool({
    name: options.name,
    description:
      change === 'tool description'
        ? `${options.description}, in degrees Fahrenheit`
        : options.description,
    input: options.input,
    execute: input => (change === 'tool output' ? changed(input) : options.execute(input)),
  });
}

/** The tools, without the one named `removed` when `change` is `tool removed`. */
export function plantedTools(
  change: Change | undefined,
  removed: string,
  tools: readonly AnyTool[],
): AnyTool[] {
  return change === 'tool removed' ? tools.filter(each => each.name !== removed) : [...tools];
}

/** Runs `entry` on `input` into the JSONL trace `file`, as a user's program records one. */
export async function recordRun(
  file: string,
  entry: AnyAgent,
  input: string,
  options: Omit<RunOptions, 'trace'> = {},
): Promise<void> {
  const sink = jsonlSink(file);
  try {
    await run(entry, input, { ...options, trace: sink });
  } finally {
    await sink.close();
  }
}

/**
 * A scripted model for a shape: its steps answer the recording's run; a rerun answers from the
 * recording instead, so a script left unused there is no fault.
 */
export function script(
  steps: Parameters<typeof fakeLLM>[0],
  options: Parameters<typeof fakeLLM>[1] = {},
): ReturnType<typeof fakeLLM> {
  return fakeLLM(steps, { allowUnusedSteps: true, ...options });
}

/**
 * The four changes a shape plants: `agent`'s instructions (or `instructed`'s), the description and
 * the output of its tool `changed`, and its tool `removed` gone.
 */
export function everyChange(
  agent: string,
  {
    changed,
    removed,
    instructed = agent,
  }: { changed: string; removed: string; instructed?: string },
): Shape['changes'] {
  return {
    instructions: { agent: instructed },
    'tool description': { agent, tool: changed },
    'tool removed': { agent, tool: removed },
    'tool output': { agent, tool: changed },
  };
}

/** A fork after `afterStep` answers whose new model answers `text`, which is then the output. */
export function forkAnswering(afterStep: number, text: string): ForkCheck {
  return {
    afterStep,
    model: () => script([{ text }]),
    expect: report => expect(report.result).toMatchObject({ output: text }),
  };
}
