/**
 * The generator: fast-check writes agent programs from a grammar (agents with handoffs and agents
 * as tools, zod schemas with defaults, transforms and unions, tool outcomes of every kind, model
 * faults with backoff, breakers, guardrails, fallbacks, ReAct agents, model settings, a cassette,
 * a router, rate limits, cost limits, workflows, planned runs, streams whose reader stops, aborts,
 * deadlines, second turns, stepping or virtual clocks) and checks the promise on each: P0 the
 * recording validates, P1 it reruns unchanged as the same, P3 in little real time, P4 a planted
 * change diverges where it first shows, in words, P5 a fork after step 1 reproduces it; P2
 * through the CLI on a sample. A fixed seed here; `pnpm conformance:fuzz` runs longer and saves
 * what it finds as rows.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tapeOf } from './generator/build-program.js';
import { checkProgram, recordProgram } from './generator/check-program.js';
import { programArbitrary } from './generator/program.js';
import { agentTraceProcess } from './harness/cli-process.js';

const seed = 20261127;
const programs = 300;

describe('generated agent programs', () => {
  it(`P0, P1, P3, P4 and P5 hold on ${programs} programs (seed ${seed})`, async () => {
    await fc.assert(
      fc.asyncProperty(programArbitrary, async program => {
        const found = await checkProgram(program);
        expect(found, found).toBeUndefined();
      }),
      { seed, numRuns: programs },
    );
  }, 180_000);

  it('P2: a sample reruns as the same through the CLI, each process ending by itself', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'agent-trace-generated-cli-'));
    const sample = fc.sample(programArbitrary, { seed: seed + 1, numRuns: 4 });
    const done = await Promise.all(
      sample.map(async (program, index) => {
        const programFile = join(folder, `program-${index}.json`);
        const trace = join(folder, `recording-${index}.jsonl`);
        writeFileSync(programFile, JSON.stringify(program));
        await recordProgram(program, trace);
        return agentTraceProcess(
          ['rerun', trace, '--agent', 'test/conformance/generator/program-module.ts'],
          45_000,
          {
            AGENT_TRACE_PROGRAM: programFile,
            ...(program.cassette === true ? { AGENT_TRACE_TAPE: tapeOf(trace) } : {}),
          },
        );
      }),
    );
    for (const process of done) {
      expect(process.killed, process.stdout).toBe(false);
      expect({ code: process.code, stdout: process.stdout }).toMatchObject({ code: 0 });
      expect(process.stdout).toMatch(/same behaviour|runs: same/);
    }
  }, 60_000);
});
