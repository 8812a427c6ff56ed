/**
 * Several runs in one `withTrace` are a run each, sealed when it ends, with the processor set for
 * the process (`setTraceProcessors`) as with `withAgentTrace` (the conformance matrix's row).
 */
import { agentTraceProcessor, openaiAgentsModel } from '@agent-trace/openai-agents';
import { memorySink, validateTrace } from '@agent-trace/trace';
import { run, setTraceProcessors, setTracingDisabled, withTrace } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { desk, scripts } from '../fixtures/agents/openai-agents-desk.js';
import { spanTree } from '../support/span-tree.js';

describe('Agents SDK: several runs in one withTrace', () => {
  it('records a run each, valid, each with its own agents nested as one run', async () => {
    const sink = memorySink();
    const processor = agentTraceProcessor({ trace: sink });
    setTraceProcessors([processor]);
    setTracingDisabled(false);
    const ask = (question: string) => {
      const byAgent = scripts();
      return run(
        desk({
          model: name => openaiAgentsModel(byAgent[name as keyof typeof byAgent], { agent: name }),
          tools: tools => tools,
        }),
        question,
      );
    };
    await withTrace('desk', async () => {
      await ask('Is Oslo cold?');
      await ask('And Rome?');
      await ask('And Lima?');
    });
    await processor.flush();
    const { events } = sink;
    expect(validateTrace(events).problems).toEqual([]);
    const runs = [...new Set(events.map(event => event.run))];
    expect(runs).toHaveLength(3);
    const inputs = events.flatMap(event => (event.event === 'run_start' ? [event.input] : []));
    expect(inputs).toEqual(['Is Oslo cold?', 'And Rome?', 'And Lima?']);
    // Each run has the shape of the first: triage, the forecaster under its handoff, the researcher
    // under the forecaster's tool call; the third run's agents are not under the second's.
    const shapes = runs.map(id => spanTree(events.filter(event => event.run === id)));
    expect(shapes[1]).toEqual(shapes[0]);
    expect(shapes[2]).toEqual(shapes[0]);
  });
});
