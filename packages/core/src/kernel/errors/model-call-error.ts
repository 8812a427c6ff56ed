import { AgentTraceError } from './agent-trace-error.js';
import type { FeatureRefusal } from './feature-refusal.js';

/** What kind of failure a model call ran into, normalised across providers. */
export type ModelCallErrorKind =
  | 'rate_limit'
  | 'timeout'
  | 'server'
  | 'bad_request'
  | 'authentication'
  /** The account's quota or credit is used up (OpenAI's `insufficient_quota`): waiting will not help. */
  | 'quota_exceeded'
  /** The model (or the endpoint) does not exist for this key: a 404. */
  | 'not_found'
  | 'stream_interrupted'
  | 'script_exhausted'
  | 'circuit_open'
  /** A feature refused the call for a reason of its own (the error's `refusal`): not sent. */
  | 'refused'
  | 'unknown';

const kinds: Readonly<Record<ModelCallErrorKind, true>> = {
  rate_limit: true,
  timeout: true,
  server: true,
  bad_request: true,
  authentication: true,
  quota_exceeded: true,
  not_found: true,
  stream_interrupted: true,
  script_exhausted: true,
  circuit_open: true,
  refused: true,
  unknown: true,
};

/** Every kind of model-call failure (a trace's `error.type` for a model call that failed so). */
export const modelCallErrorKinds = Object.keys(kinds) as readonly ModelCallErrorKind[];

/** Constructor options of {@link ModelCallError}. */
export interface ModelCallErrorOptions {
  message: string;
  kind: ModelCallErrorKind;
  /** The HTTP status code, when the failure came from an HTTP response. */
  status?: number;
  /** How long the provider asked us to wait before retrying, in milliseconds. */
  retryAfterMs?: number;
  /** Whether trying the same call again may succeed. Derived from `kind` when omitted. */
  isRetryable?: boolean;
  /** For kind `refused`: the feature that refused the call, and its own kind of refusal. */
  refusal?: FeatureRefusal;
  cause?: unknown;
}

const retryableKinds: ReadonlySet<ModelCallErrorKind> = new Set([
  'rate_limit',
  'timeout',
  'server',
  'stream_interrupted',
]);

/** A model call failed: typed so that retry policies and traces can tell failures apart. */
export class ModelCallError extends AgentTraceError {
  readonly kind: ModelCallErrorKind;
  readonly status: number | undefined;
  readonly retryAfterMs: number | undefined;
  readonly isRetryable: boolean;
  /** For kind `refused`: the feature that refused the call, and its own kind of refusal. */
  readonly refusal: FeatureRefusal | undefined;

  constructor({
    message,
    kind,
    status,
    retryAfterMs,
    isRetryable,
    refusal,
    cause,
  }: ModelCallErrorOptions) {
    super({ message, cause });
    this.name = 'ModelCallError';
    this.kind = kind;
    this.status = status;
    this.retryAfterMs = retryAfterMs;
    this.isRetryable = isRetryable ?? retryableKinds.has(kind);
    this.refusal = refusal;
  }

  /** Maps an HTTP status code to the error kind agent-trace uses. */
  static kindForStatus(status: number): ModelCallErrorKind {
    if (status === 429) return 'rate_limit';
    if (status === 408) return 'timeout';
    if (status === 401 || status === 403) return 'authentication';
    if (status === 404) return 'not_found';
    if (status >= 500) return 'server';
    if (status >= 400) return 'bad_request';
    return 'unknown';
  }
}
