import { run, tool, type TraceEvent } from '@agent-trace/core';
import { fakeLLM, rerunTrace } from '@agent-trace/testing';
import { memorySink } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { questions } from '../../examples/react-runtime/questions.js';
import { reactRuntime } from '../../examples/react-runtime/runtime.js';
import { evaluateArithmetic } from '../../examples/react-runtime/tools/arithmetic.js';
import { databaseTool } from '../../examples/react-runtime/tools/database.js';
import { search } from '../../examples/react-runtime/tools/search.js';

/** The calculator, with its description as given. */
const calculatorDescribed = (description: string) =>
  tool({
    name: 'calculator',
    description,
    input: z.object({ expression: z.string() }),
    execute: ({ expression }) => ({ expression, value: evaluateArithmetic(expression) }),
  });

const described = 'Evaluates an arithmetic expression: + - * / // % ** and parentheses.';

/** The runtime on a question's script (answered from the recording in a rerun). */
const runtime = (description = described, script = questions[0]!.script) =>
  reactRuntime({
    model: fakeLLM(script, { allowUnusedSteps: true }),
    tools: [calculatorDescribed(description), search, databaseTool()],
  });

async function record(index: number): Promise<TraceEvent[]> {
  const sink = memorySink();
  const question = questions[index]!;
  await run(runtime(described, question.script), question.text, { trace: sink });
  return sink.events;
}

describe('a ReAct trace replays', () => {
  it('with no divergence: the recorded text gives the same actions, tools and answer', async () => {
    for (const index of [0, 1]) {
      const report = await rerunTrace(await record(index), runtime(), { liveTools: true });
      expect(report.same).toBe(true);
      expect(report.rerun.filter(event => event.event === 'malformed_answer')).toHaveLength(
        index === 1 ? 1 : 0,
      );
    }
  });

  it("and a changed tool description is caught at the first model call, as the tool's change", async () => {
    const report = await rerunTrace(
      await record(0),
      runtime('Evaluates arithmetic: + - * / only.'),
    );
    expect(report.same).toBe(false);
    expect(report.firstDivergence).toMatchObject({
      kind: 'changed',
      expected: expect.stringMatching(/^model call 1 of 'react_runtime'/) as string,
    });
    expect(report.firstDivergence?.explanation).toEqual([
      {
        part: 'tool',
        tool: 'calculator',
        summary:
          "tool 'calculator' description: Evaluates [-an -]arithmetic[- expression-]: + - * / [-// % ** and parentheses-]{+only+}.",
      },
    ]);
  });
});
