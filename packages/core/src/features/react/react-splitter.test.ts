import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseReActStep } from './react-format.js';
import type { TextPiece } from '../../kernel/run/seam/feature.js';
import { ReActSplitter } from './react-splitter.js';

/** The pieces of `text` pushed in the given parts, neighbours of one label merged. */
function split(parts: readonly string[]): TextPiece[] {
  const splitter = new ReActSplitter();
  const pieces = [...parts.flatMap(part => splitter.push(part)), ...splitter.flush()];
  const merged: TextPiece[] = [];
  for (const piece of pieces) {
    const last = merged.at(-1);
    if (last?.label === piece.label)
      merged[merged.length - 1] = { ...last, text: last.text + piece.text };
    else merged.push(piece);
  }
  return merged;
}

/** `text` cut at the given positions. */
function cutAt(text: string, positions: readonly number[]): string[] {
  const points = [...new Set(positions.map(position => position % (text.length + 1)))].sort(
    (a, b) => a - b,
  );
  const parts: string[] = [];
  let from = 0;
  for (const point of points) {
    parts.push(text.slice(from, point));
    from = point;
  }
  parts.push(text.slice(from));
  return parts;
}

const anyLabel =
  /^[ \t]*(?:\*\*)?(thought|action input|action|observation|final answer)(?:\*\*)?[ \t]*:/im;

describe('ReActSplitter', () => {
  it('splits a step into its parts and drops the labels', () => {
    expect(split(['Thought: I need it.\nAction: search\nAction Input: {"q": 1}'])).toEqual([
      { label: 'thought', text: 'I need it.\n' },
      { label: 'action', text: 'search\n' },
      { label: 'action_input', text: '{"q": 1}' },
    ]);
    expect(split(['Th', 'ought: done\n**Final', ' Answer**: ', ' 42'])).toEqual([
      { label: 'thought', text: 'done\n' },
      { label: 'answer', text: '42' },
    ]);
  });

  it('holds back a line only while it may still be a label', () => {
    const splitter = new ReActSplitter();
    expect(splitter.push('Thought: x\nAct')).toEqual([{ label: 'thought', text: 'x\n' }]);
    expect(splitter.push('ually, no')).toEqual([{ label: 'thought', text: 'Actually, no' }]);
    expect(splitter.push('\nFinal Answer: 4')).toEqual([
      { label: 'thought', text: '\n' },
      { label: 'answer', text: '4' },
    ]);
  });

  it('gives the same pieces however the text is cut', () => {
    const fragments = fc.constantFrom(
      'Thought:',
      'Action:',
      'Action Input:',
      'Observation:',
      'Final Answer:',
      '**Final Answer**:',
      'action input :',
      '\n',
      '\r',
      ' ',
      '*',
      'Act',
      '{"a": 1}',
    );
    const text = fc
      .array(fc.oneof(fragments, fc.string({ maxLength: 6 })), { maxLength: 20 })
      .map(parts => parts.join(''));
    fc.assert(
      fc.property(text, fc.array(fc.nat(), { maxLength: 8 }), (answer, positions) => {
        expect(split(cutAt(answer, positions))).toEqual(split([answer]));
      }),
      { numRuns: 1000, seed: 1601 },
    );
  });

  it('streams as the Final Answer exactly what the parser reads as the answer', () => {
    const free = fc.string({ maxLength: 40 }).filter(text => !anyLabel.test(text));
    fc.assert(
      fc.property(
        free,
        free,
        fc.array(fc.nat(), { maxLength: 6 }),
        (thought, answer, positions) => {
          const text = `Thought: ${thought}\nFinal Answer: ${answer}`;
          const step = parseReActStep(text, []);
          const streamed = split(cutAt(text, positions))
            .filter(piece => piece.label === 'answer')
            .map(piece => piece.text)
            .join('');
          expect(step).toMatchObject({ kind: 'final_answer' });
          expect(streamed.trim()).toBe(step.kind === 'final_answer' ? step.answer : undefined);
        },
      ),
      { numRuns: 1000, seed: 1602 },
    );
  });
});
