import {
  agent,
  type Agent,
  type AnyTool,
  type LanguageModel,
  type RunResult,
} from '@agent-trace/core';
import { blockedPatternsGuardrail, maxLengthGuardrail } from '@agent-trace/core/guardrail';
import { calculator } from './tools/calculator.js';
import { databaseTool } from './tools/database.js';
import { search } from './tools/search.js';

/** Options of {@link reactRuntime}. */
export interface RuntimeOptions {
  readonly model: LanguageModel;
  /** @defaultValue calculator, search and database */
  readonly tools?: readonly AnyTool[];
  /** Model calls before the run stops with `max_steps`. @defaultValue 10 */
  readonly maxSteps?: number;
  /** Retries of a failing tool before it is declared unavailable. @defaultValue 2 */
  readonly maxRetries?: number;
  /** @defaultValue 4096 */
  readonly maxInputTokens?: number;
  /** @defaultValue 4096 */
  readonly maxOutputTokens?: number;
  /** Patterns refused in the question and in the answer. @defaultValue none */
  readonly blockedPatterns?: readonly RegExp[];
}

/**
 * A ReAct agent runtime: one agent in ReAct text mode with the calculator, search and database
 * tools, input and output guardrails, and tool retries that end in a degraded answer when a tool
 * keeps failing.
 */
export function reactRuntime(options: RuntimeOptions): Agent {
  const blocked =
    options.blockedPatterns === undefined || options.blockedPatterns.length === 0
      ? []
      : [blockedPatternsGuardrail([...options.blockedPatterns])];
  return agent({
    name: 'react_runtime',
    instructions:
      'You answer questions about the orders database and the documents you can search. Cite the sources of what you found ([source id]). Compute with the calculator, never in your head.',
    model: options.model,
    tools: options.tools ?? [calculator, search, databaseTool()],
    toolCalling: 'react',
    limits: { maxSteps: options.maxSteps ?? 10 },
    retry: { toolRetries: options.maxRetries ?? 2, baseDelayMs: 0 },
    guardrails: {
      input: [maxLengthGuardrail({ maxTokens: options.maxInputTokens ?? 4096 }), ...blocked],
      output: [maxLengthGuardrail({ maxTokens: options.maxOutputTokens ?? 4096 }), ...blocked],
    },
  });
}

/** One step of a runtime's answer: what the model thought, did, and saw. */
export interface RuntimeStep {
  readonly thought: string;
  readonly action?: string;
  readonly action_input?: unknown;
  readonly observation?: string;
  readonly final_answer?: string;
}

/** A runtime's answer: the answer, its steps, the tool calls, and why it stopped. */
export interface RuntimeAnswer {
  readonly answer: string;
  readonly steps: readonly RuntimeStep[];
  readonly tool_calls: number;
  /** `completed`, `max_steps`, `tool_failure_degraded`, `malformed_answer_limit`, … */
  readonly stopped_reason: string;
  /** True when a tool kept failing and the answer was given without it. */
  readonly degraded: boolean;
  /** The tool errors the model was told, in order. */
  readonly errors: readonly string[];
}

/** A run's result in the runtime's shape. */
export function runtimeAnswer(result: RunResult): RuntimeAnswer {
  return {
    answer: result.output,
    steps: result.steps.flatMap(step => {
      const react = step.react;
      if (react === undefined) return [];
      return [
        {
          thought: react.thought,
          ...(react.action === undefined
            ? {}
            : { action: react.action.tool, action_input: react.action.input }),
          ...(react.malformed === undefined ? {} : { action: `(malformed: ${react.malformed})` }),
          ...(react.observation === undefined ? {} : { observation: react.observation }),
          ...(react.finalAnswer === undefined ? {} : { final_answer: react.finalAnswer }),
        },
      ];
    }),
    tool_calls: result.toolCalls.length,
    stopped_reason: result.stopReason,
    degraded: result.degradedTools.length > 0,
    errors: result.toolCalls.flatMap(call => (call.error === undefined ? [] : [call.error])),
  };
}
