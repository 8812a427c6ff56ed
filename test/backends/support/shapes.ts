/**
 * The agent shapes the backend tests send through real backends, each with the module that
 * `agent-trace rerun --agent` reruns it against: the demo's document-review desk (agents as
 * tools), a desk that hands off, a run scored online (an evaluation result), and one bridged run
 * of each framework (the AI SDK, the OpenAI Agents SDK, LangGraph.js).
 */
import { run } from '@agent-trace/core';
import { onlineScoring, toolErrorRate } from '@agent-trace/evals';
import { reviewDesk } from '../../../examples/document-review/agents.js';
import { draft } from '../../../examples/document-review/draft.js';
import { recordForecast } from '../../fixtures/agents/ai-sdk-forecaster.js';
import { recordForecaster } from '../../fixtures/agents/langgraph-desk.js';
import { recordDesk } from '../../fixtures/agents/openai-agents-desk.js';
import { smallDesk } from '../../fixtures/agents/small-desk.js';
import type { RecordShape } from './exported-shape.js';

/** A shape: how to record it, and the module a rerun of it loads. */
export interface Shape {
  readonly name: string;
  readonly record: RecordShape;
  readonly module: string;
}

export const shapes: readonly Shape[] = [
  {
    name: 'demo',
    record: (trace, ids) =>
      run(reviewDesk(), `Review this draft: ${draft}`, { trace, ids, session: 'demo' }),
    module: 'examples/document-review/agents.ts',
  },
  {
    name: 'handoff',
    record: (trace, ids) => run(smallDesk(), 'Weather in Paris, then a refund', { trace, ids }),
    module: 'test/fixtures/agents/small-desk.ts',
  },
  {
    name: 'evaluated',
    record: async (trace, ids) => {
      const scoring = onlineScoring({ scorers: [toolErrorRate()], to: trace });
      await run(smallDesk(), 'Weather in Paris', { trace: [...trace, scoring], ids });
      await scoring.drain();
    },
    module: 'test/fixtures/agents/small-desk.ts',
  },
  {
    name: 'ai-sdk',
    record: trace => recordForecast(trace),
    module: 'test/fixtures/agents/ai-sdk-forecaster.ts',
  },
  {
    name: 'openai-agents',
    record: (trace, ids) => recordDesk(trace, ids),
    module: 'test/fixtures/agents/openai-agents-desk.ts',
  },
  {
    name: 'langgraph',
    record: (trace, ids) => recordForecaster(trace, ids),
    module: 'test/fixtures/agents/langgraph-desk.ts',
  },
];
