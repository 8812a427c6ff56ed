import { ConfigurationError } from '../errors/configuration-error.js';
import type { ToolDefinition } from '../model/language-model.js';
import type { AnyTool } from './tool.js';

/** The tools of one agent, by name. Refuses duplicate names. */
export class ToolRegistry {
  readonly #tools = new Map<string, AnyTool>();
  /** The tool names, sorted, for error messages. */
  readonly names: readonly string[];
  /** The definitions sent to the model, in the order the tools were given. */
  readonly definitions: readonly ToolDefinition[];

  constructor(tools: readonly AnyTool[], { owner }: { owner: string }) {
    for (const tool of tools) {
      if (this.#tools.has(tool.name)) {
        throw new ConfigurationError({
          option: 'tools',
          message: `Duplicate tool name '${tool.name}' in agent '${owner}': the LLM could not tell the two apart. Give each tool a unique name.`,
        });
      }
      this.#tools.set(tool.name, tool);
    }
    this.names = [...this.#tools.keys()].sort();
    this.definitions = tools.map(tool => tool.definition);
  }

  /** The tool called `name`, or undefined. */
  get(name: string): AnyTool | undefined {
    return this.#tools.get(name);
  }

  /** How many tools there are. */
  get size(): number {
    return this.#tools.size;
  }
}
