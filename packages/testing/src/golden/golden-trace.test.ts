import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agent, run, sequentialIds, steppingClock } from '@agent-trace/core';
import { memorySink } from '@agent-trace/trace';
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeLLM } from '../fake-llm.js';
import { compareGoldenTrace, GoldenTraceMismatchError } from './golden-trace.js';
import { normalizeTrace } from './normalize-trace.js';

async function trace(text: string, deterministic = true) {
  const sink = memorySink();
  await run(agent({ name: 'a', model: fakeLLM([{ text }]) }), 'hi', {
    trace: sink,
    ...(deterministic ? { clock: steppingClock(), ids: sequentialIds() } : {}),
  });
  return sink.events;
}

describe('normalizeTrace', () => {
  it('makes two runs of the same behaviour equal, whatever their ids and times', async () => {
    expect(normalizeTrace(await trace('same', false))).toEqual(normalizeTrace(await trace('same', true)));
  });

  it('renames ids by first appearance and replaces times and durations', async () => {
    const [first, , , , , last] = normalizeTrace(await trace('x', false));
    expect(first).toMatchObject({ run: 'run-1', session: 'session-1', trace_id: 'trace-1', span_id: 'span-1', parent_span_id: null, time: '<time>' });
    expect(last).toMatchObject({ event: 'run_end', span_id: 'span-1', duration_ms: '<duration>' });
  });
});

describe('compareGoldenTrace', () => {
  const directory = mkdtempSync(join(tmpdir(), 'agent-trace-golden-'));

  afterEach(() => vi.unstubAllEnvs());

  it('writes the golden file when updating, then matches it', async () => {
    vi.stubEnv('CI', '');
    expect(compareGoldenTrace('greeting', await trace('hello'), { directory, update: true })).toBe('written');
    expect(readFileSync(join(directory, 'greeting.jsonl'), 'utf8').split('\n')[0]).toContain('"event":"run_start"');
    expect(compareGoldenTrace('greeting', await trace('hello', false), { directory, update: false })).toBe('matched');
  });

  it('never writes in CI, even when asked to update: a missing golden file fails', async () => {
    vi.stubEnv('CI', 'true');
    vi.stubEnv('UPDATE_GOLDEN', '1');
    expect(() => compareGoldenTrace('ci-absent', [], { directory, update: true })).toThrow(
      GoldenTraceMismatchError,
    );
    expect(existsSync(join(directory, 'ci-absent.jsonl'))).toBe(false);
    await expect(trace('hi')).resolves.toBeDefined();
  });

  it('fails for a missing golden file, saying how to create it', () => {
    expect(() => compareGoldenTrace('absent', [], { directory, update: false })).toThrow(
      `Golden trace 'absent' does not exist (${join(directory, 'absent.jsonl')}). Run the test with UPDATE_GOLDEN=1 to write it, check it, and commit it.`,
    );
  });

  it('fails with a line-aligned diff when the trace changed', async () => {
    vi.stubEnv('CI', '');
    compareGoldenTrace('changed', await trace('before'), { directory, update: true });
    let error: unknown;
    try {
      compareGoldenTrace('changed', await trace('after'), { directory, update: false });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(GoldenTraceMismatchError);
    const message = (error as Error).message;
    expect(message).toContain("Trace differs from golden trace 'changed'");
    expect(message).toMatch(/\n- {4}4 .*"text":"before"/);
    expect(message).toMatch(/\n\+ {4}4 .*"text":"after"/);
    expect(message).toContain('If the change is intended, run the test with UPDATE_GOLDEN=1 and commit the new file.');
  });

  it('keeps the goldens of an old corpus untouched when comparing', () => {
    const file = join(directory, 'old.jsonl');
    writeFileSync(file, 'not what the trace is\n');
    expect(() => compareGoldenTrace('old', [], { directory, update: false })).toThrow(GoldenTraceMismatchError);
    expect(readFileSync(file, 'utf8')).toBe('not what the trace is\n');
  });
});
