import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { ResumeClaim, ResumeLedger } from '@agent-trace/core/approval';

/**
 * A ledger of resumed states in a folder: one file per state, created exclusively (`wx`), which the
 * file system makes a compare-and-set across processes. A `jsonlSink` keeps one beside its trace
 * (`<trace>.resumed/`) and the user's (`~/.agent-trace/resumed`), so a state resumed twice on one
 * machine is refused whichever process tries and whichever trace it goes on in; for machines that
 * share states, give `resumeLedger` a store they share (`fileResumeLedger` on a shared folder, or
 * a database's compare-and-set).
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

/**
 * The folder where this machine's user records resumed states, whichever trace they go on in:
 * `AGENT_TRACE_RESUME_LEDGER` when set, else `~/.agent-trace/resumed`.
 */
export function userResumeFolder(environment: NodeJS.ProcessEnv = process.env): string {
  const given = environment.AGENT_TRACE_RESUME_LEDGER;
  return given !== undefined && given !== '' ? given : join(homedir(), '.agent-trace', 'resumed');
}

/**
 * Claims in each ledger in turn: the first that knows the state decides, and a claim is recorded
 * in all of them. What a `jsonlSink` keeps: the user's ledger (one state resumes once on the
 * machine, into whichever trace) and the one beside its trace (once for the trace, whoever shares
 * its folder).
 */
export function eachResumeLedger(ledgers: readonly ResumeLedger[]): ResumeLedger {
  return {
    claim: async claim => {
      for (const ledger of ledgers) {
        const earlier = await ledger.claim(claim);
        if (earlier !== undefined) return earlier;
      }
      return undefined;
    },
  };
}
