import { closeSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** A trace file of the library's folder as found on disk. */
export interface FoundFile {
  /** Its path under the folder, with `/` separators. */
  readonly path: string;
  readonly absolute: string;
  readonly size: number;
  /** Epoch milliseconds of its last write. */
  readonly modified: number;
}

/** Folders never searched: dependencies, version control, and hidden folders (the index's own). */
const skipped = (name: string) => name === 'node_modules' || name.startsWith('.');

/** A trace file (or a folder of them) the library could not read, and why. */
export interface UnreadableFile {
  /** Its path under the folder, with `/` separators. */
  readonly path: string;
  readonly reason: string;
}

/** Why a file or folder cannot be read, in words: the system's code and message. */
export function unreadableReason(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  const advice =
    code === 'EACCES' || code === 'EPERM' ? ': this user may not read it; fix its permissions' : '';
  return `${message}${advice}`;
}

/**
 * Every `.jsonl` file under `folder` (a link to a file counts), in path order. A file or folder
 * under it that cannot be read is told to `onUnreadable` and left out; the folder itself must be
 * readable.
 */
export function findTraceFiles(
  folder: string,
  onUnreadable: (file: UnreadableFile) => void = () => {},
): FoundFile[] {
  const found: FoundFile[] = [];
  const path = (absolute: string) => relative(folder, absolute).split(sep).join('/');
  const visit = (directory: string): void => {
    let entries;
    try {
      entries = readdirSync(directory, { withFileTypes: true });
    } catch (error) {
      if (directory === folder) throw error;
      onUnreadable({ path: `${path(directory)}/`, reason: unreadableReason(error) });
      return;
    }
    for (const entry of entries) {
      const absolute = join(directory, entry.name);
      if (entry.isDirectory()) {
        if (!skipped(entry.name)) visit(absolute);
      } else if ((entry.isFile() || entry.isSymbolicLink()) && entry.name.endsWith('.jsonl')) {
        try {
          const stats = statSync(absolute);
          if (!stats.isFile()) continue;
          found.push({ path: path(absolute), absolute, size: stats.size, modified: stats.mtimeMs });
        } catch (error) {
          onUnreadable({ path: path(absolute), reason: unreadableReason(error) });
        }
      }
    }
  };
  visit(folder);
  return found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** How many first bytes of a file say it is the file the index read (not a rewritten one). */
export const headBytes = 256;

/** Up to `length` bytes of a file from `position`. */
export function readRange(absolute: string, position: number, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  const descriptor = openSync(absolute, 'r');
  try {
    let read = 0;
    while (read < length) {
      const got = readSync(descriptor, buffer, read, length - read, position + read);
      if (got === 0) break;
      read += got;
    }
    return buffer.subarray(0, read);
  } finally {
    closeSync(descriptor);
  }
}

/**
 * The complete lines of a file between `from` and `size`, in chunks of about `chunkBytes` (16 MiB
 * unless told), each with its position.
 */
export function* completeChunks(
  absolute: string,
  from: number,
  size: number,
  chunkBytes = 16 * 1024 * 1024,
): Generator<{ position: number; buffer: Buffer }> {
  let position = from;
  while (position < size) {
    let length = Math.min(chunkBytes, size - position);
    let buffer = readRange(absolute, position, length);
    let end = buffer.lastIndexOf(0x0a) + 1;
    // A line longer than a chunk: read on until its end, or stop at a torn last line.
    while (end === 0 && position + length < size) {
      length = Math.min(length * 2, size - position);
      buffer = readRange(absolute, position, length);
      end = buffer.lastIndexOf(0x0a) + 1;
    }
    if (end === 0) return;
    yield { position, buffer: buffer.subarray(0, end) };
    position += end;
  }
}

/**
 * The complete lines of a file after byte `from` (a torn last line is left for later), and the
 * byte where the last one ends: where the next read starts.
 */
export function completeLinesFrom(
  absolute: string,
  from: number,
): { lines: string[]; bytes: number } {
  const lines: string[] = [];
  let bytes = from;
  for (const { position, buffer } of completeChunks(absolute, from, statSync(absolute).size)) {
    for (const line of buffer.toString('utf8').split('\n')) if (line !== '') lines.push(line);
    bytes = position + buffer.length;
  }
  return { lines, bytes };
}
