// A toy agent framework for docs/guide/recording-api.md: a loop that asks a scripted model,
// runs the tools it calls, and tells its hooks what it does. It stands for any framework with
// hooks of its own (Mastra, LlamaIndex.TS, a company's loop).
import type { Message } from '@agent-trace/core';

/** What the toy model answers: text, or tool calls. */
export interface ToyAnswer {
  readonly text: string;
  readonly calls: readonly { readonly id: string; readonly tool: string; readonly args: unknown }[];
  readonly tokens: { readonly input: number; readonly output: number };
}

/** The framework's hooks: what a bridge implements. */
export interface ToyHooks {
  onModelStart(messages: readonly Message[]): void;
  onModelEnd(answer: ToyAnswer): void;
  onToolStart(id: string, tool: string, args: unknown): void;
  onToolEnd(id: string, output: unknown): void;
  onEnd(output: string): void;
}

/** A toy agent: a name, instructions, tools as functions, and a scripted model. */
export interface ToyAgent {
  readonly name: string;
  readonly instructions: string;
  readonly tools: Readonly<Record<string, (args: unknown) => unknown>>;
  readonly answers: readonly ToyAnswer[];
}

/** Runs a toy agent on `input`, telling `hooks` what happens. */
export function runToy(agent: ToyAgent, input: string, hooks: ToyHooks): string {
  let fresh: Message[] = [{ role: 'user', content: input }];
  for (const answer of agent.answers) {
    hooks.onModelStart(fresh);
    hooks.onModelEnd(answer);
    fresh = [
      {
        role: 'assistant',
        content: answer.text,
        toolCalls: answer.calls.map(call => ({
          callId: call.id,
          toolName: call.tool,
          argumentsText: JSON.stringify(call.args),
        })),
      },
    ];
    if (answer.calls.length === 0) {
      hooks.onEnd(answer.text);
      return answer.text;
    }
    for (const call of answer.calls) {
      hooks.onToolStart(call.id, call.tool, call.args);
      const output = agent.tools[call.tool]?.(call.args);
      hooks.onToolEnd(call.id, output);
      const content = JSON.stringify(output);
      fresh.push({ role: 'tool', callId: call.id, toolName: call.tool, content, isError: false });
    }
  }
  throw new Error(`${agent.name} ran out of answers`);
}
