/**
 * The run options a generated program runs with beyond its agents, as a module exports them: its
 * deadline, its own features (a tool quota and a scrub of the requests, on the public seam), its
 * provider's rate limit, its cost limit and the prices of its models.
 */
import { type LanguageModel, type ModelRequest, type RunOptions } from '@agent-trace/core';
import { costBudget } from '@agent-trace/core/cost';
import { standardFeatures, type Feature } from '@agent-trace/core/features';
import { rateLimits } from '@agent-trace/core/rate-limit';
import { toolQuota } from '../../../examples/features/tool-quota.js';
import type { Program } from './program.js';

/**
 * A user's feature written on the public seam that changes what every model is sent: it wraps the
 * models in the `model` hook and replaces the digits of tool messages with `mark`.
 */
export function digitScrub(mark: string): Feature {
  const scrub = (request: ModelRequest): ModelRequest => ({
    ...request,
    messages: request.messages.map(message =>
      message.role === 'tool'
        ? { ...message, content: message.content.replace(/\d/g, mark) }
        : message,
    ),
  });
  return {
    name: 'digit-scrub',
    version: 2,
    forRun: () => ({
      model: ({ model }): LanguageModel => ({
        ...model,
        generate: request => model.generate(scrub(request)),
        stream: request => model.stream(scrub(request)),
      }),
    }),
  };
}

/** The mark the digit scrub writes, and the one a planted change writes instead. */
export const scrubMarks = { recorded: '#', planted: '§' } as const;

const price = {
  inputPerMillion: 1_000,
  outputPerMillion: 10_000,
  source: 'the generator',
  asOf: '2026-11-27',
};

/** What the generated programs' models cost: a dollar per thousand tokens in, ten out. */
export const programPrices = {
  'fake:fake-model': price,
  'fake:fake-model-2': price,
  'fake:fake-fallback': price,
  'fake:fake-planner': price,
};

/**
 * The run options the program runs with. Each call gives a fresh rate limiter and budget, as a
 * module loaded again would; the turns of one recording share the one they were given.
 */
export function programRunOptions(
  program: Program,
  /** A feature option planted: the quota raised by 10, or the scrub's other mark. */
  planted?: 'feature option' | 'request rewrite',
): Omit<RunOptions, 'trace' | 'overrides'> {
  const { budget, quota, scrub } = program;
  const own = [
    ...(quota === undefined ? [] : [toolQuota(quota + (planted === 'feature option' ? 10 : 0))]),
    ...(scrub === true
      ? [digitScrub(planted === 'request rewrite' ? scrubMarks.planted : scrubMarks.recorded)]
      : []),
  ];
  return {
    ...(program.timeoutMs === undefined ? {} : { timeoutMs: program.timeoutMs }),
    ...(own.length === 0 ? {} : { features: [...standardFeatures, ...own] }),
    ...(program.rateLimit === undefined
      ? {}
      : { rateLimits: rateLimits({ fake: { requestsPerMinute: program.rateLimit } }) }),
    ...(budget === undefined
      ? {}
      : {
          prices: programPrices,
          ...(budget.kind === 'run'
            ? { maxCostUsd: budget.usd }
            : { budget: costBudget({ name: 'team', limitUsd: budget.usd }) }),
        }),
  };
}
