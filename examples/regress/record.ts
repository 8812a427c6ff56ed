/** Records the desk's week: `count` runs, twenty to a trace file, as a service writes them. */
import { join } from 'node:path';
import { run } from '@agent-trace/core';
import { jsonlSink } from '@agent-trace/trace';
import { requests, supportDesk } from './desk.js';

export async function recordWeek(folder: string, count = 200): Promise<string[]> {
  const desk = supportDesk('v1');
  const asked = requests(count);
  for (let start = 0; start < asked.length; start += 20) {
    const sink = jsonlSink(join(folder, `desk-${String(start / 20 + 1).padStart(2, '0')}.jsonl`));
    for (const input of asked.slice(start, start + 20)) await run(desk, input, { trace: sink });
    await sink.close();
  }
  return asked;
}
