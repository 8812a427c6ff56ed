export { asScore, asText, scorer } from './scorer.js';
export type { EvalCase, Score, Scorer, ScorerInput, TaskRun } from './scorer.js';
export {
  containsPartially,
  jsonEqual,
  matchTrajectory,
  trajectoryMatch,
  trajectoryOf,
} from './scorers/trajectory.js';
export type {
  ArgumentMatch,
  TrajectoryMatchOptions,
  TrajectoryMode,
  TrajectoryStep,
} from './scorers/trajectory.js';
export { defineEval } from './define-eval.js';
export type { EvalDefinition, EvalTask, TaskContext } from './define-eval.js';
export { fileNameOf, runEval } from './run-eval.js';
export type { CaseResult, CaseUsage, EvalResult, RunEvalOptions } from './run-eval.js';
export {
  exactMatch,
  includes,
  matchesRegex,
  matchesSchema,
  numericCloseness,
} from './scorers/output.js';
export {
  costAtMost,
  latencyAtMost,
  noErrors,
  stepsAtMost,
  stopReasonIs,
  tokensAtMost,
} from './scorers/run-facts.js';
export { belowThreshold, evalGate, failedRunLines, thresholdFor } from './eval-gate.js';
export type { EvalGate, EvalThreshold } from './eval-gate.js';
export { byCase, compareEvals } from './compare/compare-evals.js';
export type {
  CaseChange,
  EvalComparison,
  FailedRun,
  FlakyCase,
  ScorerComparison,
} from './compare/compare-evals.js';
export { bootstrapInterval, mean } from './compare/bootstrap.js';
export { llmJudge } from './scorers/judge.js';
export type { LlmJudgeOptions } from './scorers/judge.js';
export { DataFileError, loadCases } from './data/load-cases.js';
export { comparisonJUnit } from './report/junit-report.js';
export { comparisonMarkdown } from './report/markdown-report.js';
export { shortScore, signed } from './report/compared-evals.js';
export type { ComparedEval } from './report/compared-evals.js';
export { evaluationsOf } from './report-evaluations.js';
export { regress } from './regress/regress.js';
export { regressComparison } from './regress/regress-comparison.js';
export type { RegressOptions, RegressResult } from './regress/regress.js';
export type { RegressCase, RegressStatus, RegressVerdict } from './regress/regress-case.js';
export type { RegressExperimentIds } from './regress/regress-experiments.js';
export {
  costNoMore,
  regressScorers,
  sameTrajectory,
  stepsNoMore,
} from './regress/regress-scorers.js';
export type { RegressExpected } from './regress/regress-scorers.js';
export { selectRecorded } from './regress/select-recorded.js';
export type { RecordedRun, RegressSelection } from './regress/select-recorded.js';
export { simulatedUser, userInstructions } from './conversation/simulated-user.js';
export { transcriptLines, transcriptOf } from './conversation/transcript-text.js';
export type {
  SimulatedUser,
  SimulatedUserOptions,
  TranscriptEntry,
  UserContext,
  UserReply,
  UserStop,
} from './conversation/simulated-user.js';
export { converse } from './conversation/converse.js';
export type { ConversationStop, ConverseOptions, ConverseResult } from './conversation/converse.js';
export {
  askedAgain,
  conversationToolSuccess,
  goalReached,
  perTurn,
  turnsToResolution,
} from './conversation/conversation-scorers.js';
export {
  consistencyJudge,
  consistencyRubric,
  frustrationJudge,
  frustrationRubric,
} from './conversation/conversation-judges.js';
export { conversationTask } from './conversation/conversation-task.js';
export {
  addToDataset,
  datasetAt,
  DatasetError,
  datasetVersion,
  diffDatasets,
  inputKey,
  readDataset,
  sourceOf,
  versionLog,
  versionsFolder,
} from './dataset/index.js';
export type {
  AddToDatasetOptions,
  CaseSource,
  ChangedCase,
  ConversationInput,
  DatasetAddition,
  DatasetCase,
  DatasetContent,
  DatasetDiff,
  DatasetVersionEntry,
  PickedRun,
  RunSelection,
  StoredCase,
} from './dataset/index.js';
export {
  costPerSuccessfulRun,
  noLoops,
  repeatedToolCalls,
  stepEfficiency,
  timeToFirstTokenAtMost,
  toolErrorRate,
  toolRecovery,
} from './scorers/agent-metric-scorers.js';
export type { CostPerSuccess } from './scorers/agent-metric-scorers.js';
export { firstLoop, repeatedCalls, timeToFirstToken, toolErrors } from './scorers/agent-metrics.js';
export type { RepeatedCall } from './scorers/agent-metrics.js';
export {
  goalSuccessJudge,
  goalSuccessRubric,
  stepLines,
  toolArgumentJudge,
  toolArgumentRubric,
} from './scorers/agent-judges.js';
export { inSample, onlineScoring } from './online/online-scoring.js';
export type {
  OnlineScoring,
  OnlineScoringOptions,
  OnlineScoringStats,
} from './online/online-scoring.js';
