/**
 * The conformance matrix's contract: every agent shape the toolkit supports is a module that
 * records a run of itself, builds today's code unchanged or with one planted change, and (where
 * it can) forks. The same four checks run over every shape (`check-shape.ts`), and the guide's
 * table is generated from the list (`matrix.ts`).
 */
import type { LanguageModel, RunOptions, TraceEvent } from '@agent-trace/core';
import type { ApprovalDecision } from '@agent-trace/core/approval';
import type { BridgedAgent, ForkReport, RerunTarget } from '@agent-trace/trace';

/** A change planted in today's code, which a rerun must catch and explain. */
export type Change = 'instructions' | 'tool description' | 'tool removed' | 'tool output';

/** Where a planted change must show: the agent whose step changes, and the tool it touches. */
export interface Planted {
  /** The agent whose request (or tool result) changes first. */
  readonly agent: string;
  /** The tool described differently, removed, or answering otherwise. */
  readonly tool?: string;
}

/** What a fork after step k must do. */
export interface ForkCheck {
  readonly afterStep: number;
  /** Who answers from the fork on. */
  readonly model: () => LanguageModel;
  /** Decisions for calls waiting for approval in the fork. */
  readonly decisions?: readonly ApprovalDecision[];
  /** What the fork's result must be. */
  readonly expect: (report: ForkReport<unknown>) => void;
}

/** One row of the matrix. */
export interface Shape {
  /** The row's name, as the guide's table shows it. */
  readonly name: string;
  /** The module's path from the repository root: `agent-trace rerun --agent` loads it. */
  readonly module: string;
  /** Writes a recording of the shape to `file` (JSONL), in one or more processes. */
  record(file: string): Promise<void>;
  /** Today's code: unchanged, or with `change` planted. */
  build(change?: Change): RerunTarget | BridgedAgent | Promise<RerunTarget | BridgedAgent>;
  /** The changes this shape plants, and where each must show. */
  readonly changes: Partial<Record<Change, Planted>>;
  /** The fork this shape checks; absent where forking does not apply (bridges). */
  readonly fork?: ForkCheck;
  /** What the recording must hold beyond validating (the shape really is that shape). */
  readonly holds?: (events: readonly TraceEvent[]) => void;
  /** What today's code runs the agent with (prices, limits), as the module exports it. */
  readonly runOptions?: Omit<RunOptions, 'trace' | 'overrides'>;
  /** How many runs of the agent the recording holds. @defaultValue 1 */
  readonly runs?: number;
  /** How many runs of a simulated user it holds beside them (replayed, never rerun). @defaultValue 0 */
  readonly userRuns?: number;
  /**
   * The shape's tools do the same when run again: it also reruns unchanged as the same with the
   * real tools (`liveTools`). @defaultValue false
   */
  readonly liveTools?: boolean;
  /** Releases what building the shape opened (MCP connections). */
  readonly close?: () => Promise<void>;
}
