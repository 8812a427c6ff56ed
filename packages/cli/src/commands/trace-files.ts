import { readdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

const wildcard = /[*?[]/;

/** A file-name pattern (`*`, `?`, `[abc]`) as a regular expression over a whole name. */
function nameMatcher(pattern: string): RegExp {
  let source = '';
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index] as string;
    if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else if (char === '[') {
      const close = pattern.indexOf(']', index + 1);
      if (close === -1) source += '\\[';
      else {
        source += `[${pattern.slice(index + 1, close).replace(/\\/g, '\\\\')}]`;
        index = close;
      }
    } else source += char.replace(/[.+^${}()|\\\]]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

/**
 * The trace files named: each argument as it is, or, when it holds a wildcard in its last part
 * (`traces/*.jsonl`, quoted so the shell leaves it), the files of its folder it matches, sorted.
 * A pattern that matches nothing, or a wildcard in a folder's name, is what is wrong, for stderr.
 */
export async function expandTraceFiles(args: readonly string[]): Promise<string[] | string> {
  const files: string[] = [];
  for (const arg of args) {
    if (!wildcard.test(arg)) {
      files.push(arg);
      continue;
    }
    const folder = dirname(arg);
    if (wildcard.test(folder))
      return `'${arg}': a wildcard is taken in the file name only, not in a folder's (give the folders, or let the shell expand it).`;
    const matcher = nameMatcher(basename(arg));
    let names: string[];
    try {
      names = await readdir(folder);
    } catch (error) {
      return `Cannot read the folder of '${arg}': ${error instanceof Error ? error.message : String(error)}.`;
    }
    const matched = names.filter(name => matcher.test(name)).sort();
    if (matched.length === 0) return `No trace file matches '${arg}'.`;
    files.push(
      ...matched.map(name => (folder === '.' && !arg.startsWith('./') ? name : join(folder, name))),
    );
  }
  return files;
}
