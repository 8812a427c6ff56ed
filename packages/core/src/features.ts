/**
 * `@agent-trace/core/features`: the seam through which every capability beyond the turn enters a
 * run, and the standard features that use it. A feature is `{ name, forRun(setup) }`, whose hooks
 * see small values (the model request, the answer, the tool call) with the run's facts, and answer
 * go on, replace, refuse, wait, stop or pause. Give a run its features with
 * `run(agent, input, { features: [...standardFeatures, yours] })`.
 */
export type {
  DecidedStep,
  Feature,
  FeatureContext,
  FeatureEventName,
  FeatureHooks,
  FeatureSetup,
  Interrupt,
  LlmIdentity,
  MaybePromise,
  ModelAttemptHold,
  ModelCallRequest,
  PausedStep,
  RecordEvent,
  RoundCall,
  Stop,
  ToolAttemptHold,
  ToolResultView,
  ToolCheck,
  ToolStep,
} from './kernel/run/seam/feature.js';
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
