/**
 * Mastra 1.x under the wire-level scenario: an Agent on `@ai-sdk/openai`'s Chat Completions model
 * against the local chat server, `generate` or `stream`. Mastra needs Node ≥ 22.13, so this file
 * is compiled into the Node 22 folder (`node22.ts`) and runs under that Node, its packages
 * installed there.
 */
import { createOpenAI } from '@ai-sdk/openai';
import { Agent } from '@mastra/core/agent';
import { createTool } from '@mastra/core/tools';
import { z } from 'zod';
import { expectDone, type Subject } from '../peers/subject.js';
import type { WireMode } from './wire-mode.js';
import { wireNames } from './wire-names.js';

const add = createTool({
  id: 'add',
  description: 'Add two numbers',
  inputSchema: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }: { a: number; b: number }) => Promise.resolve(a + b),
});

/** A Mastra agent on `@ai-sdk/openai`, its step limit the run's length. */
export function mastraWire(baseURL: string, mode: WireMode): Subject {
  const provider = createOpenAI({ apiKey: 'bench', baseURL });
  return {
    name: wireNames.mastra,
    kind: 'peer',
    prepare(steps) {
      const subject = new Agent({
        id: 'bench',
        name: 'bench',
        instructions: '',
        model: provider.chat(`bench-${steps}`),
        tools: { add },
      });
      return Promise.resolve({
        async run() {
          if (mode === 'json') {
            const result = await subject.generate('go', { maxSteps: steps });
            expectDone('Mastra', result.text);
            return result;
          }
          const streamed = await subject.stream('go', { maxSteps: steps });
          for await (const part of streamed.fullStream) void part;
          expectDone('Mastra', await streamed.text);
          return streamed;
        },
        finish: () => Promise.resolve(),
      });
    },
  };
}
