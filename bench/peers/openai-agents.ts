/** The OpenAI Agents SDK under the shared scenario, on its own `ScriptedModel`. */
import {
  Agent,
  run,
  setTraceProcessors,
  setTracingDisabled,
  tool,
  type TracingProcessor,
} from '@openai/agents';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents/testing';
import { z } from 'zod';
import { addArguments } from '../scenario.js';
import { expectDone, type Subject } from './subject.js';

/** The scenario's tool, as the Agents SDK defines one. */
export const add = tool({
  name: 'add',
  description: 'Add two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

/** A tracing processor that does nothing: the SDK's own tracing cost, with no export. */
export const noopProcessor: TracingProcessor = {
  onTraceStart: () => Promise.resolve(),
  onTraceEnd: () => Promise.resolve(),
  onSpanStart: () => Promise.resolve(),
  onSpanEnd: () => Promise.resolve(),
  shutdown: () => Promise.resolve(),
  forceFlush: () => Promise.resolve(),
};

/** `tracing: 'off'` disables the SDK's tracing; `'noop'` keeps it on with a no-op processor. */
export function openaiAgents(tracing: 'off' | 'noop'): Subject {
  return {
    name: `OpenAI Agents SDK (tracing ${tracing === 'off' ? 'off' : 'on, no-op'})`,
    kind: 'peer',
    prepare(steps) {
      setTracingDisabled(tracing === 'off');
      setTraceProcessors(tracing === 'off' ? [] : [noopProcessor]);
      const script = [
        ...Array.from({ length: steps - 1 }, (_, index) => [
          functionCall('add', addArguments(index), { callId: `call_${index}` }),
        ]),
        [assistantMessage('done')],
      ];
      const subjectAgent = new Agent({
        name: 'bench',
        model: new ScriptedModel(script),
        tools: [add],
      });
      return Promise.resolve({
        async run() {
          const result = await run(subjectAgent, 'go', { maxTurns: steps + 1 });
          expectDone('The OpenAI Agents SDK', result.finalOutput);
          return result;
        },
        finish: () => Promise.resolve(),
      });
    },
  };
}
