import type { Evaluation, TraceEvent } from '@agent-trace/core';
import type { AlignedStep } from '@agent-trace/trace';
import type { RunTotals } from '@agent-trace/trace/model';

/** One trace file as the page holds it. */
export interface TraceFileData {
  /** The file's name as given on the command line. */
  readonly name: string;
  readonly events: readonly TraceEvent[];
  /** What the reader warned about (a torn last line, newer content skipped). */
  readonly warnings: readonly string[];
  /** Scores of its runs (an eval case's), each on the span it judges. */
  readonly evaluations?: readonly EvaluationData[];
}

/** A score of a run, on the span it judges (the run's entry agent). */
export type EvaluationData = Pick<
  Evaluation,
  'spanId' | 'name' | 'score' | 'label' | 'explanation'
>;

/** Two runs compared step by step: the n-th run to end in each trace, or a recording and its rerun. */
export interface RunDiffData {
  /** 1-based position of the pair. */
  readonly index: number;
  /** The run ids; undefined when only one side has this run. */
  readonly expectedRun: string | undefined;
  readonly actualRun: string | undefined;
  /** Set when the pair is a turn of a conversation: which conversation, which turn. */
  readonly turn?: { readonly conversation: string; readonly turn: number };
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
  | ServedData
  | ExperimentData;

/** The header a served page sends its server's token in, with every feedback. */
export const tokenHeader = 'x-agent-trace-token';

/**
 * A served page: its runs are asked of the server, and each run's rows fetched in windows. A
 * library (a folder with its index) filters runs on the server; served files filter in the page.
 */
export interface ServedData {
  readonly mode: 'serve';
  readonly title: string;
  readonly source: 'library' | 'files';
  /** What the page sends with a feedback: set when the server records it (on a loopback address). */
  readonly token?: string;
  /** Set when the server adds runs to datasets ("Add to dataset"). */
  readonly datasets?: true;
}

/** What the agent graph reads of a run: its agent starts and its handoffs and delegations. */
export interface GraphFact {
  readonly event: string;
  readonly agent: string;
  readonly from?: string;
  readonly to?: string;
  readonly mode?: string;
}

/** What a run's calls add up to, and how long it took. */
export interface SummaryTotals extends RunTotals {
  readonly durationMs: number;
}

/** A run as a served page lists it, before any of its rows are fetched. */
export interface RunSummary {
  readonly id: string;
  readonly session: string;
  /** The trace file, relative to the served folder (or as given). */
  readonly file: string;
  readonly entryAgent: string;
  /** Epoch milliseconds of its first event. */
  readonly startedAt: number;
  /** Undefined while the run has not ended. */
  readonly stopReason: string | undefined;
  readonly agents: readonly string[];
  readonly totals: SummaryTotals;
  /** Epoch milliseconds of its latest event, when the run's rows are known. */
  readonly lastAt?: number;
  readonly rowCount?: number;
  /** Changes whenever an event of the run is read: the page fetches its outline again. */
  readonly version?: number;
  readonly graph?: readonly GraphFact[];
  /** How far its file has been read, while a big file is still being read. */
  readonly reading?: { readonly bytes: number; readonly of: number };
  /** Set for a turn of a conversation (`run_start.conversation`): what was said and answered. */
  readonly turn?: ConversationTurnData;
  /** People's feedback on the run, in the order given. */
  readonly feedback?: readonly FeedbackData[];
  /** Scores of the run (an eval case's, or online scoring's), each on the span it judges. */
  readonly evaluations?: readonly EvaluationData[];
}

/** A person's feedback on a run, as the page shows it. */
export interface FeedbackData {
  readonly id: string;
  readonly score?: number;
  readonly label?: string;
  readonly comment?: string;
  readonly by?: string;
  readonly source: string;
  /** Epoch milliseconds. */
  readonly at: number;
  /** The whole of it in words, as `replay` says it. */
  readonly text: string;
}

/** A run that is a turn of a conversation, as the conversation's transcript shows it. */
export interface ConversationTurnData {
  readonly conversation: string;
  /** 1-based. */
  readonly turn: number;
  /** Set for a simulated user's reply (its model calls): not one of the agent's turns. */
  readonly user?: true;
  /** What the person said: the run's input. */
  readonly said: string;
  /** What the agent answered: the run's output; undefined while it runs or when it gave none. */
  readonly answered?: string;
}

/** One experiment as the experiments page names it. */
export interface ExperimentSideData {
  readonly id: string;
  readonly eval: string;
  /** Branch, commit and dirty flag, when known. */
  readonly label?: string;
  /** `completed`, `interrupted`, `running` or `unfinished`, when kept in a store. */
  readonly status?: string;
  readonly runs: number;
  readonly costUsd?: number;
  readonly unpricedCalls?: number;
}

/** A scorer over the experiment: its mean, and against the baseline the difference and its interval. */
export interface ExperimentScorerData {
  readonly name: string;
  readonly candidate: number;
  readonly baseline?: number;
  readonly difference?: number;
  readonly interval?: readonly [number, number];
}

/** How a case's score moved against the baseline. */
export type ScoreChange = 'regressed' | 'improved' | 'flaky' | 'same' | 'new';

/** One case's score by one scorer: the mean over its trials, and its lowest trial's reason. */
export interface CaseScoreData {
  readonly score: number;
  readonly reason: string;
  readonly baseline?: number;
  readonly change: ScoreChange;
}

/** One case of the experiment: its scores, and which traces show it. */
export interface ExperimentCaseData {
  readonly id: string;
  readonly trials: number;
  /** By scorer name. */
  readonly scores: Readonly<Record<string, CaseScoreData>>;
  readonly error?: string;
  /** The trial whose trace the page opens: the lowest-scoring one. */
  readonly trial: number;
  /** Positions in {@link ExperimentData.traces}: the candidate's trace, and the baseline's. */
  readonly trace?: number;
  readonly baselineTrace?: number;
  /** The two traces aligned run by run, step by step, when both are there. */
  readonly diff?: readonly RunDiffData[];
  /** The opened trial's conversation, for a conversation task's case: who said what. */
  readonly transcript?: readonly TranscriptLineData[];
}

/** A line of a conversation's transcript. */
export interface TranscriptLineData {
  readonly turn: number;
  readonly role: 'user' | 'agent';
  readonly text: string;
}

/** The experiments page: cases × scorers, against a baseline when there is one. */
export interface ExperimentData {
  readonly mode: 'experiment';
  readonly title: string;
  readonly candidate: ExperimentSideData;
  readonly baseline?: ExperimentSideData;
  readonly scorers: readonly ExperimentScorerData[];
  readonly cases: readonly ExperimentCaseData[];
  readonly traces: readonly TraceFileData[];
}

/** The id of the page's `<script type="application/json">` element holding the {@link ViewerData}. */
export const viewerDataElementId = 'agent-trace-data';
