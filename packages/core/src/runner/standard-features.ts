import { cacheFeature } from '../features/cache/cache-feature.js';
import { approvalFeature } from '../features/approval/approval-feature.js';
import { costFeature } from '../features/cost/cost-feature.js';
import { guardrailFeature } from '../features/guardrail/guardrail-feature.js';
import { rateLimitFeature } from '../features/rate-limit/rate-limit-feature.js';
import { reactFeature } from '../features/react/react-feature.js';
import { redactionFeature } from '../features/redaction/redaction-feature.js';
import { breakerFeature } from '../features/resilience/breaker-feature.js';
import type { Feature } from '../kernel/run/seam/feature.js';
import type { RunOptions } from './run-options.js';

/**
 * The features every run of `run`, `stream`, `resume` and the workflows has, in the order their
 * hooks are called: a rate limit's wait comes before a circuit breaker's refusal, a cost limit's
 * check before an approval's.
 */
export const standardFeatures: readonly Feature<RunOptions>[] = [
  redactionFeature,
  cacheFeature,
  costFeature,
  rateLimitFeature,
  breakerFeature,
  guardrailFeature,
  approvalFeature,
  reactFeature,
];
