// A run whose deadline stopped one part of a workflow between two steps, while another part's
// answer (which came before the deadline) was written after it: a recording the generator made on
// a virtual clock (the deadline is real time, so where it lands varies from one recording to the
// next; this one is kept). The rerun replayed the stop only once that later answer was made, so
// the stopped part went on to a step it never took ("the model fails: script_exhausted"). A step
// the recorded turn never decided because the stop ended it first now waits for the replayed stop.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { formatDivergence, rerunTrace } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { buildProgram, rerunBuild } from '../conformance/generator/build-program.js';
import { programRunOptions } from '../conformance/generator/program-options.js';
import type { Program } from '../conformance/generator/program.js';

const file = fileURLToPath(
  new URL('../fixtures/recordings/deadline-between-parts.jsonl', import.meta.url),
);

/** The program the recording was made of: two agents and a tool, side by side, 15 ms to go. */
const program = JSON.parse(
  readFileSync(
    new URL('../fixtures/recordings/deadline-between-parts.json', import.meta.url),
    'utf8',
  ),
) as Program;

describe('a deadline that stopped one part between steps while another answered', () => {
  it('reruns unchanged as the same, each time', async () => {
    for (let time = 0; time < 3; time++) {
      const report = await rerunTrace(file, buildProgram(program, rerunBuild(program, file)), {
        run: programRunOptions(program),
      });
      expect(report.differences.map(formatDivergence).join('\n')).toBe('');
      expect(report.result).toMatchObject({ stopReason: 'timeout' });
    }
  });
});
