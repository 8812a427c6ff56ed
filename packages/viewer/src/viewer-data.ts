import type { TraceEvent } from '@agent-trace/core';
import type { AlignedStep } from '@agent-trace/trace';

/** One trace file as the page holds it. */
export interface TraceFileData {
  /** The file's name as given on the command line. */
  readonly name: string;
  readonly events: readonly TraceEvent[];
  /** What the reader warned about (a torn last line, newer content skipped). */
  readonly warnings: readonly string[];
}

/** Two runs compared step by step: the n-th run to end in each trace, or a recording and its rerun. */
export interface RunDiffData {
  /** 1-based position of the pair. */
  readonly index: number;
  /** The run ids; undefined when only one side has this run. */
  readonly expectedRun: string | undefined;
  readonly actualRun: string | undefined;
  /** Every step of both runs, aligned; `same` steps included. */
  readonly steps: readonly AlignedStep[];
}

/** What a page shows: decided by the command that wrote it. */
export type ViewerData =
  | {
      readonly mode: 'trace';
      readonly title: string;
      readonly files: readonly TraceFileData[];
    }
  | {
      readonly mode: 'diff';
      readonly title: string;
      /** What the two sides are called: file names, or "recording" and "rerun". */
      readonly expectedName: string;
      readonly actualName: string;
      readonly expected: readonly TraceEvent[];
      readonly actual: readonly TraceEvent[];
      readonly runs: readonly RunDiffData[];
    }
  | {
      readonly mode: 'serve';
      readonly title: string;
    };

/** The id of the page's `<script type="application/json">` element holding the {@link ViewerData}. */
export const viewerDataElementId = 'agent-trace-data';
