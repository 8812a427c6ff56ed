import { AgentTraceError } from '../errors/agent-trace-error.js';

/** One use of a paused state: the state, the run that went on from it, and when. */
export interface ResumeClaim {
  /** The paused state's id (`state.run.stateId`). */
  readonly stateId: string;
  /** The run the state paused (a resumed run keeps its id). */
  readonly runId: string;
  /** The seq of the `run_end` that paused it. */
  readonly pausedAtSeq: number;
  /** When the state was resumed (ISO 8601, the run's clock). */
  readonly at: string;
}

/**
 * Where the use of paused states is recorded, so a state resumes once. `claim` is a
 * compare-and-set: it records the claim when its state was not used yet and resolves `undefined`,
 * or resolves the earlier claim and records nothing. It must be atomic for everyone who shares the
 * ledger (a database's unique key, a file created exclusively, a row updated where unused).
 *
 * A run's ledger is its `resumeLedger` option when given; else those its trace sinks keep (a
 * `jsonlSink` records claims beside its file and in the user's folder, so a state goes on once on
 * one machine; a `memorySink` in memory) and one per process, which remembers the last
 * {@link processLedgerSize} states resumed in it. Across machines, give a ledger they share.
 */
export interface ResumeLedger {
  claim(claim: ResumeClaim): Promise<ResumeClaim | undefined>;
}

/**
 * A ledger in memory: for one process, or as the model of a database-backed one. With `limit`, it
 * remembers the last `limit` states (the oldest are forgotten first).
 */
export function memoryResumeLedger(limit = Number.POSITIVE_INFINITY): ResumeLedger {
  const claims = new Map<string, ResumeClaim>();
  return {
    claim: claim => {
      const earlier = claims.get(claim.stateId);
      if (earlier === undefined) {
        claims.set(claim.stateId, claim);
        if (claims.size > limit) claims.delete(claims.keys().next().value as string);
      }
      return Promise.resolve(earlier);
    },
  };
}

/** How many resumed states the process's own ledger remembers. */
export const processLedgerSize = 100_000;

/** The ledger of the process, for runs that name no ledger of their own. */
const processLedger = memoryResumeLedger(processLedgerSize);

/**
 * Thrown by `resume` (and `resumeWorkflow`, `resumePlan`) when the state was already resumed: a
 * paused run goes on once. Nothing of the refused resume ran or was traced.
 */
export class StateAlreadyResumedError extends AgentTraceError {
  /** The earlier use of the state. */
  readonly earlier: ResumeClaim;

  constructor(earlier: ResumeClaim) {
    super({
      message: `The state of run ${earlier.runId} paused at seq ${earlier.pausedAtSeq} (state ${earlier.stateId}) was already resumed at ${earlier.at}: a paused run goes on once, and this resume was refused before anything ran. To try another decision from the same pause, resume with { fork: true }: it goes on as a new run with its own id.`,
    });
    this.name = 'StateAlreadyResumedError';
    this.earlier = earlier;
  }
}

/**
 * Claims a paused state in every ledger that applies (see {@link ResumeLedger}); throws a
 * {@link StateAlreadyResumedError} when any of them says it was used.
 */
export async function claimResume(
  claim: ResumeClaim,
  own: ResumeLedger | undefined,
  sinkLedgers: readonly ResumeLedger[],
): Promise<void> {
  const ledgers = own !== undefined ? [own] : [...sinkLedgers, processLedger];
  for (const ledger of ledgers) {
    const earlier = await ledger.claim(claim);
    if (earlier !== undefined) throw new StateAlreadyResumedError(earlier);
  }
}
