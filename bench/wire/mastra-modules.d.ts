/**
 * The part of Mastra's API the wire bench uses. Mastra is installed outside the workspace, beside
 * Node 22 (`node22.ts`: it needs Node ≥ 22.13, the project's floor is 20), so its own declarations
 * are not there for the type check of the repository.
 */
declare module '@mastra/core/agent' {
  export class Agent {
    constructor(config: {
      id: string;
      name: string;
      instructions: string;
      model: unknown;
      tools: Record<string, unknown>;
    });
    generate(prompt: string, options: { maxSteps: number }): Promise<{ text: string }>;
    stream(
      prompt: string,
      options: { maxSteps: number },
    ): Promise<{ fullStream: AsyncIterable<unknown>; text: Promise<string> }>;
  }
}

declare module '@mastra/core/tools' {
  import type { z } from 'zod';
  export function createTool<Input extends z.ZodType, Output>(tool: {
    id: string;
    description: string;
    inputSchema: Input;
    execute: (input: z.infer<Input>) => Promise<Output>;
  }): unknown;
}
