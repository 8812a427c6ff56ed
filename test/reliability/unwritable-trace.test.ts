import { chmodSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agent, run } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import { jsonlSink, memorySink, TraceFileError } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';

describe('a trace path that cannot be written', () => {
  it('fails when the sink is made, saying which file, why, and what to do', () => {
    const directory = mkdtempSync(join(tmpdir(), 'agent-trace-readonly-'));
    chmodSync(directory, 0o500);
    const readOnly = join(directory, 'run.jsonl');
    const asRoot = process.getuid?.() === 0; // root writes anywhere: use a path under a file
    const path = asRoot ? '/dev/null/run.jsonl' : readOnly;
    expect(() => jsonlSink(path)).toThrow(TraceFileError);
    expect(() => jsonlSink(path)).toThrow(new RegExp(`${path.replace(/\//g, '\\/')}`));
    chmodSync(directory, 0o700);
  });

  it.runIf(existsSync('/dev/full'))(
    'on a full disk, the run goes on, the other sinks get everything, and the failure is reported',
    async () => {
      const full = jsonlSink('/dev/full'); // every write fails with ENOSPC
      const memory = memorySink();
      const result = await run(
        agent({ name: 'a', model: fakeLLM([{ text: 'still answered' }]) }),
        'go',
        { trace: [full, memory] },
      );
      expect(result).toMatchObject({ stopReason: 'completed', output: 'still answered' });
      expect(memory.events.at(-1)).toMatchObject({ event: 'run_end' });
      expect(result.traceErrors).toHaveLength(1);
      expect(result.traceErrors[0]).toBeInstanceOf(TraceFileError);
      expect(result.traceErrors[0]?.message).toMatch(/\/dev\/full/);
      expect(result.traceErrors[0]?.message).toMatch(/ENOSPC|no space/i);
      await full.close(); // what could not be written is reported, not retried
    },
  );
});
