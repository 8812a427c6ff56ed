import { canonicalJson } from '@agent-trace/core/util';
import type { TraceMessage } from '@agent-trace/core';
import type { TrajectoryStep } from '../scorers/trajectory.js';

/**
 * Where a case of a dataset came from: the recorded run it was made of (its lineage). An eval's
 * report names it beside a failing case, so the run can be opened again.
 */
export interface CaseSource {
  /** The run's id. */
  readonly run: string;
  /** Its trace file, from the dataset file's folder (as a link from the dataset to the trace). */
  readonly trace: string;
  /** The byte offset of the run's `run_start` in that file. */
  readonly offset: number;
  /** When the run started (ISO-8601). */
  readonly time: string;
  readonly session: string;
  /** The run's entry agent, and its version when the application gave one. */
  readonly agent: string;
  readonly version?: string;
  /** The release of the application that made the run (a git commit, …), when it gave one. */
  readonly release?: string;
  /** How the run ended. */
  readonly stopReason?: string;
  /** For a turn of a conversation: its id and turn. */
  readonly conversation?: string;
  readonly turn?: number;
}

/** A turn's input with the conversation it went on from. */
export interface ConversationInput {
  /** What the person said this turn (the run's input). */
  readonly message: string;
  /** The conversation before it, as the trace records messages. */
  readonly history: readonly TraceMessage[];
}

/**
 * A case made of a recorded run: its input (with the history it started from, when it had one),
 * what it answered and the tool calls and handoffs it made as `expected` (edit them to what it
 * should have done), and its lineage in `metadata.source`.
 */
export interface DatasetCase {
  readonly id: string;
  readonly input: string | ConversationInput;
  readonly expected: { readonly output?: unknown; readonly trajectory: readonly TrajectoryStep[] };
  readonly metadata: { readonly source: CaseSource } & Readonly<Record<string, unknown>>;
}

/** What cases are deduplicated by: their input, as canonical JSON. */
export function inputKey(input: unknown): string {
  return canonicalJson(input ?? null);
}

/** A case's lineage, when its metadata has one (a case made of a run). */
export function sourceOf(metadata: unknown): CaseSource | undefined {
  const source = (metadata as { source?: unknown } | undefined)?.source as
    Partial<CaseSource> | undefined;
  return typeof source?.run === 'string' && typeof source.trace === 'string'
    ? (source as CaseSource)
    : undefined;
}
