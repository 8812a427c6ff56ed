import { isAbsolute } from 'node:path';
import { glob, isDynamicPattern } from 'tinyglobby';

/**
 * The trace files named: each argument as it is, or, when it is a glob (`traces/*.jsonl`, quoted
 * so the shell leaves it; `**` too), the files it matches, sorted. A glob that matches nothing is
 * what is wrong, for stderr.
 */
export async function expandTraceFiles(args: readonly string[]): Promise<string[] | string> {
  const files: string[] = [];
  for (const arg of args) {
    if (!isDynamicPattern(arg)) {
      files.push(arg);
      continue;
    }
    const matched = await glob(arg, { onlyFiles: true, absolute: isAbsolute(arg) });
    if (matched.length === 0) return `No trace file matches '${arg}'.`;
    files.push(...matched.sort());
  }
  return files;
}
