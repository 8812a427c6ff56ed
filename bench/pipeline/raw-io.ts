/** The raw ways of writing and reading trace lines the pipeline's throughput is compared with. */
import { closeSync, createReadStream, openSync, writeSync } from 'node:fs';

/** Lines joined into ~64 KiB buffers, as a batched writer would hand them to the kernel. */
export function batches(lines: readonly string[]): Buffer[] {
  const out: Buffer[] = [];
  let pending: string[] = [];
  let size = 0;
  for (const line of lines) {
    pending.push(line);
    size += line.length;
    if (size >= 65_536) {
      out.push(Buffer.from(pending.join(''), 'utf8'));
      pending = [];
      size = 0;
    }
  }
  if (pending.length > 0) out.push(Buffer.from(pending.join(''), 'utf8'));
  return out;
}

/** Writes `chunks` to a new file at `path`, `times` over. */
export function writeBatches(path: string, chunks: readonly Buffer[], times = 1): void {
  const fd = openSync(path, 'w');
  try {
    for (let time = 0; time < times; time++) for (const chunk of chunks) writeSync(fd, chunk);
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads a file of JSON lines with nothing but a chunk split and `JSON.parse`; its line count. Its
 * read buffer is `readTrace`'s (512 KiB), so the two differ only in what is done with each line.
 */
export async function plainSplitParse(path: string): Promise<number> {
  let events = 0;
  let pending = '';
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 19, encoding: 'utf8' })) {
    const text = pending + (chunk as string);
    let start = 0;
    for (;;) {
      const end = text.indexOf('\n', start);
      if (end === -1) break;
      JSON.parse(text.slice(start, end));
      events++;
      start = end + 1;
    }
    pending = text.slice(start);
  }
  return events;
}
