/**
 * A framework under the scenario of `../scenario.ts`. A subject builds everything one run needs (fresh model script, fresh sink)
 * outside the timed part; `run` is the timed part, `finish` closes what the run left open.
 */
export interface PreparedRun {
  /** The timed run; gives the framework's result (held while the retained bytes are counted). */
  run(): Promise<unknown>;
  finish(): Promise<void>;
}

/** One framework configuration under test. */
export interface Subject {
  readonly name: string;
  /** What the numbers are compared against: ours, or a peer. */
  readonly kind: 'agent-trace' | 'peer';
  /** Builds one run of `steps` model calls. */
  prepare(steps: number): Promise<PreparedRun>;
  /** Releases what the subject holds across runs (a receiver, a directory). */
  close?(): Promise<void>;
  /**
   * How much work its tracing client has thrown away so far (LangSmith's full queue drops runs):
   * a cell that dropped work is reported as such, not timed as if it were healthy.
   */
  dropped?(): number;
}

/** Throws unless a run ended as the scenario says. */
export function expectDone(framework: string, output: unknown): void {
  if (output !== 'done')
    throw new Error(
      `${framework} did not finish the benchmark run: its output was ${JSON.stringify(output)}.`,
    );
}
