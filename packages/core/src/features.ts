/**
 * `@agent-trace/core/features`: the seam through which every capability beyond the turn enters a
 * run, and the standard features that use it. A feature is `{ name, version: 2, forRun(setup) }`,
 * whose hooks are each given one object (the run's facts and the hook's own values: the model
 * request, the answer, the tool call) and may observe, transform, stop, refuse (and wait) or
 * pause. Give a run its features with `run(agent, input, { features: [...standardFeatures, yours] })`.
 */
export type {
  AnswerAt,
  DecidedStep,
  Feature,
  FeatureContext,
  FeatureEventName,
  FeatureHooks,
  FeatureSetup,
  FinalAnswerAt,
  Interrupt,
  KeptState,
  LlmIdentity,
  MaybePromise,
  ModelAttemptHold,
  ModelCallAt,
  ModelCallRequest,
  ModelChoice,
  ObserveHooks,
  PauseAt,
  PauseHooks,
  PausedStep,
  PricedCall,
  RecordEvent,
  RefuseHooks,
  ResumeAt,
  RoundCall,
  ServiceHooks,
  Stop,
  StopHooks,
  ToolAttemptAt,
  ToolAttemptHold,
  ToolCheck,
  ToolResultAt,
  ToolRoundAt,
  ToolStep,
  TransformHooks,
  TurnStartAt,
} from './kernel/run/seam/feature.js';
export { featureVersion } from './kernel/run/seam/feature.js';
export { keptEventName } from './kernel/run/seam/kept-state.js';
export type { RecordedKeptState } from './kernel/run/seam/kept-state.js';
export type { FeatureRefusal } from './kernel/errors/feature-refusal.js';
export { addAgentOptionCheck } from './kernel/agent/agent-option-checks.js';
export type { AgentOptionCheck } from './kernel/agent/agent-option-checks.js';
export type { AgentFeatureOptions } from './kernel/agent/agent-types.js';
export { standardFeatures } from './runner/standard-features.js';
export { redactionFeature } from './features/redaction/redaction-feature.js';
export { cacheFeature } from './features/cache/cache-feature.js';
export { costFeature } from './features/cost/cost-feature.js';
export { rateLimitFeature } from './features/rate-limit/rate-limit-feature.js';
export { breakerFeature } from './features/resilience/breaker-feature.js';
export { guardrailFeature } from './features/guardrail/guardrail-feature.js';
export { approvalFeature } from './features/approval/approval-feature.js';
export { reactFeature } from './features/react/react-feature.js';
