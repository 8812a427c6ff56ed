import { closeSync, fstatSync, ftruncateSync, openSync, readSync } from 'node:fs';

const chunkBytes = 64 * 1024;

/**
 * Cuts off a torn last line (bytes after the last newline, left by a write that a crash cut
 * short) so that appended events start on a line of their own. Returns how many bytes were cut.
 * A missing or empty file is left alone.
 */
export function repairTornTail(path: string): number {
  let fd: number;
  try {
    fd = openSync(path, 'r+');
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return 0;
    throw error;
  }
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return 0;
    const buffer = Buffer.alloc(chunkBytes);
    let end = size;
    while (end > 0) {
      const start = Math.max(0, end - chunkBytes);
      const length = readSync(fd, buffer, 0, end - start, start);
      const newline = buffer.subarray(0, length).lastIndexOf(0x0a);
      if (newline !== -1) {
        const keep = start + newline + 1;
        if (keep < size) ftruncateSync(fd, keep);
        return size - keep;
      }
      end = start;
    }
    ftruncateSync(fd, 0);
    return size;
  } finally {
    closeSync(fd);
  }
}
