import { AgentTraceError } from '../errors/agent-trace-error.js';
import type { LanguageModel } from '../model/language-model.js';

/** A routing rule: when the input matches `pattern`, the agent named `agentName` takes it. */
export type RouteRule = readonly [pattern: RegExp | string, agentName: string];

/** How a router picks the agent for an input. */
export type RouterSpec =
  | {
      readonly kind: 'rules';
      readonly rules: readonly RouteRule[];
      readonly fallback: string | undefined;
    }
  | {
      readonly kind: 'llm';
      readonly rules: readonly RouteRule[];
      readonly fallback: string | undefined;
    };

/** Which agent a router chose and why. */
export interface RouteChoice {
  readonly agentName: string;
  /** `llm`: the model chose; `rule`: a rule matched; `fallback`: nothing matched. */
  readonly by: 'llm' | 'rule' | 'fallback';
  readonly reason: string;
}

/** The first rule whose pattern matches `input` (a string pattern matches case-insensitively). */
export function matchRule(rules: readonly RouteRule[], input: string): RouteRule | undefined {
  return rules.find(([pattern]) =>
    typeof pattern === 'string'
      ? input.toLowerCase().includes(pattern.toLowerCase())
      : ((pattern.lastIndex = 0), pattern.test(input)),
  );
}

/** The model of a rule router: it never calls a model, and says so if asked. */
export function noModel(name: string): LanguageModel {
  const refuse = (): never => {
    throw new AgentTraceError({
      message: `Router '${name}' routes by rules and has no model to call. Use modelRouter() for a router that asks a model, or call the agents it routes to.`,
    });
  };
  return {
    specificationVersion: 'v1',
    provider: 'rules',
    modelId: 'rule-router',
    generate: () => Promise.resolve(refuse()),
    stream: () => ({ [Symbol.asyncIterator]: refuse }),
  };
}
