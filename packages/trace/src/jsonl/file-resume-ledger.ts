import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ResumeClaim, ResumeLedger } from '@agent-trace/core/approval';

/**
 * A ledger of resumed states in a folder: one file per state, created exclusively (`wx`), which the
 * file system makes a compare-and-set across processes. A `jsonlSink` keeps one beside its trace
 * (`<trace>.resumed/`), so a state resumed twice into the same trace is refused whichever process
 * tries; point several traces at one folder with `resumeLedger: fileResumeLedger(folder)`.
 */
export function fileResumeLedger(folder: string): ResumeLedger {
  return {
    claim: async claim => {
      // Named by a hash: a state's id comes from outside and must not name a path.
      const file = join(folder, `${createHash('sha256').update(claim.stateId).digest('hex')}.json`);
      await mkdir(folder, { recursive: true });
      try {
        await writeFile(file, `${JSON.stringify(claim)}\n`, { flag: 'wx' });
        return undefined;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        return readClaim(file, claim);
      }
    },
  };
}

/** The earlier claim in `file`; a file still being written (or unreadable) reads as "used". */
async function readClaim(file: string, claim: ResumeClaim): Promise<ResumeClaim> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as ResumeClaim;
  } catch {
    return { ...claim, at: 'a moment ago (its record is still being written)' };
  }
}
