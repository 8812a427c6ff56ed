import { ConfigurationError } from '../errors/configuration-error.js';
import { isLanguageModel, type LanguageModel } from '../model/language-model.js';
import type { AnyTool } from '../tool/tool.js';
import { ToolRegistry } from '../tool/tool-registry.js';
import { defaults } from '../util/defaults.js';

/** Bounds on what one agent may do in a run. */
export interface AgentLimits {
  /**
   * Model calls the agent may make before the run stops with `max_steps`. The tool calls of the
   * last allowed step still run.
   * @defaultValue 10
   */
  maxSteps?: number;
}

/** Options of {@link agent}. */
export interface AgentOptions {
  /** Unique within a graph of agents; shown in every chunk and trace event of the agent. */
  name: string;
  /** The system prompt. @defaultValue '' */
  instructions?: string;
  model: LanguageModel;
  /** @defaultValue [] */
  tools?: readonly AnyTool[];
  limits?: AgentLimits;
}

/** An agent: a model with instructions, tools and limits. Made with {@link agent}. */
export interface Agent {
  readonly name: string;
  readonly instructions: string;
  readonly model: LanguageModel;
  readonly tools: readonly AnyTool[];
  readonly limits: Readonly<Required<AgentLimits>>;
  /** The agent's tools by name. @internal */
  readonly toolRegistry: ToolRegistry;
}

const agentNamePattern = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Defines an agent. Misconfiguration (a missing model, duplicate tool names, a bad limit) throws
 * a {@link ConfigurationError} here, not in the middle of a run.
 */
export function agent(options: AgentOptions): Agent {
  const { name, instructions = '', model, tools = [], limits = {} } = options;
  if (typeof name !== 'string' || !agentNamePattern.test(name)) {
    throw new ConfigurationError({
      option: 'name',
      message: `Invalid agent name ${JSON.stringify(name)}: use letters, digits, '_' and '-' (1 to 64 characters), e.g. 'billing'.`,
    });
  }
  if (!isLanguageModel(model)) {
    throw new ConfigurationError({
      option: 'model',
      message: `Agent '${name}' has no usable model: 'model' must be a LanguageModel such as openai('gpt-4o-mini') or fakeLLM([...]).`,
    });
  }
  const maxSteps = limits.maxSteps ?? defaults.maxSteps;
  if (!Number.isInteger(maxSteps) || maxSteps < 1) {
    throw new ConfigurationError({
      option: 'limits.maxSteps',
      message: `Invalid limits.maxSteps for agent '${name}': expected an integer of at least 1 (actual: ${String(maxSteps)}).`,
    });
  }
  return {
    name,
    instructions,
    model,
    tools,
    limits: Object.freeze({ maxSteps }),
    toolRegistry: new ToolRegistry(tools, { owner: name }),
  };
}
