import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseReActStep, reactInstructions, reactObservation } from './react-format.js';

const tools = ['calculator', 'search'];

describe('parseReActStep', () => {
  it.each([
    [
      'an action with its thought',
      'Thought: I need the sum.\nAction: calculator\nAction Input: {"expression": "2 + 3"}',
      {
        kind: 'action',
        thought: 'I need the sum.',
        tool: 'calculator',
        input: { expression: '2 + 3' },
      },
    ],
    [
      'a final answer',
      'Thought: I know it.\nFinal Answer: 5, because\n2 + 3 = 5.',
      { kind: 'final_answer', thought: 'I know it.', answer: '5, because\n2 + 3 = 5.' },
    ],
    [
      'labels in any case, bold, a fenced input and a quoted tool name',
      '**thought**: go\nACTION: `search`\naction input: ```json\n{"query": "otel"}\n```',
      { kind: 'action', thought: 'go', tool: 'search', input: { query: 'otel' } },
    ],
    [
      'text before the first label as the thought',
      'Let me look.\nAction: search\nAction Input: "otel"',
      { kind: 'action', thought: 'Let me look.', tool: 'search', input: 'otel' },
    ],
  ])('reads %s', (_, text, expected) => {
    expect(parseReActStep(text, tools)).toMatchObject(expected);
  });

  it.each([
    [
      'no Action and no Final Answer',
      'Thought: hmm, let me think more.',
      'no_action',
      'neither an Action nor a Final Answer',
    ],
    [
      'an unknown tool',
      'Action: weather\nAction Input: {}',
      'unknown_tool',
      "There is no tool 'weather'. The tools are: calculator, search.",
    ],
    [
      'an action without input',
      'Action: search',
      'no_action_input',
      'The Action \'search\' has no "Action Input:" line.',
    ],
    [
      'an input that is not JSON',
      'Action: calculator\nAction Input: 2 + 3',
      'invalid_json',
      'is not valid JSON: "2 + 3"',
    ],
    [
      'an Action and a Final Answer together',
      'Action: search\nAction Input: "x"\nFinal Answer: y',
      'action_and_final_answer',
      'both an Action and a Final Answer',
    ],
    [
      'an Observation the model made up',
      'Action: search\nAction Input: "x"\nObservation: found it\nFinal Answer: y',
      'invented_observation',
      'Stop after the Action Input',
    ],
  ])('says what is wrong with %s, and how to answer', (_, text, problem, says) => {
    const step = parseReActStep(text, tools);
    expect(step).toMatchObject({ kind: 'malformed', problem });
    expect(step.kind === 'malformed' && step.message).toContain(says);
    expect(step.kind === 'malformed' && step.message).toContain('Answer in this format');
  });

  it('reads any text without throwing, as exactly one step', () => {
    const fragments = fc.constantFrom(
      'Thought:',
      'Action:',
      'Action Input:',
      'Observation:',
      'Final Answer:',
      '\n',
      ' ',
      '{',
      '}',
      '"',
      'calculator',
      'search',
      '```',
    );
    const text = fc.oneof(
      fc.string(),
      fc.array(fc.oneof(fragments, fc.string({ maxLength: 8 }))).map(parts => parts.join('')),
    );
    fc.assert(
      fc.property(text, answer => {
        const step = parseReActStep(answer, tools);
        expect(['action', 'final_answer', 'malformed']).toContain(step.kind);
        if (step.kind === 'action') expect(tools).toContain(step.tool);
      }),
      { numRuns: 2000, seed: 15 },
    );
  });

  it('reads back every action it could be given, whatever the thought and input', () => {
    const line = fc.string().filter(text => !/[\n\r]/.test(text) && !/:/.test(text));
    fc.assert(
      fc.property(line, fc.constantFrom(...tools), fc.jsonValue(), (thought, tool, input) => {
        const text = `Thought: ${thought}\nAction: ${tool}\nAction Input: ${JSON.stringify(input)}`;
        expect(parseReActStep(text, tools)).toMatchObject({
          kind: 'action',
          thought: thought.trim(),
          tool,
          input: JSON.parse(JSON.stringify(input)) as unknown,
        });
      }),
      { numRuns: 500, seed: 16 },
    );
  });
});

describe('reactInstructions', () => {
  it('describes each tool with its input schema, then the format', () => {
    const text = reactInstructions('Be exact.', [
      {
        name: 'calculator',
        description: 'Evaluates arithmetic',
        inputSchema: { type: 'object', properties: { expression: { type: 'string' } } },
      },
    ]);
    expect(text).toContain(
      'Be exact.\n\nYou can use these tools:\n- calculator: Evaluates arithmetic\n  input (JSON Schema): {"type":"object"',
    );
    expect(text).toContain('Action: the tool to use, one of calculator');
    expect(text).toContain('Final Answer: the answer');
    expect(reactObservation('5')).toBe('Observation: 5');
  });
});
