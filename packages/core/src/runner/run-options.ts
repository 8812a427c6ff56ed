import type { CacheRunOptions } from '../features/cache/cache-feature.js';
import type { CostRunOptions } from '../features/cost/cost-options.js';
import type { RateLimitRunOptions } from '../features/rate-limit/rate-limit-feature.js';
import type { RedactionRunOptions } from '../features/redaction/redaction-feature.js';
import type { ApprovalDecision } from '../kernel/protocol/approval.js';
import type { KernelOptions, ResumeOnceOptions } from '../kernel/run/frame/runner-api.js';
import type { Feature } from '../kernel/run/seam/feature.js';

/**
 * Options of `run` and `stream`: the kernel's (trace, signal, timeout, history, clock, ids, …) and
 * the standard features' (redaction, prices and cost limits, rate limits, a cache).
 */
export interface RunOptions
  extends KernelOptions, RedactionRunOptions, CostRunOptions, RateLimitRunOptions, CacheRunOptions {
  /**
   * The run's features, in the order their hooks are called: the standard ones, reordered, some
   * left out, or with your own (`[...standardFeatures, allowList]`). Give `resume` the same.
   * @defaultValue `standardFeatures`
   */
  features?: readonly Feature<RunOptions>[];
}

/** Options of `resume`: a decision for every pending call, and the run options. */
export interface ResumeOptions extends RunOptions, ResumeOnceOptions {
  /** One decision per pending call: approve, reject (with a reason the model reads) or edit. */
  decisions: readonly ApprovalDecision[];
}
