import type { Metadata } from '@grpc/grpc-js';
import type { Resource } from '@opentelemetry/resources';

/** Where and how an OTLP sink's metrics or evaluation events go, beside its spans. */
export interface OtlpSignalOptions {
  /** The collector (gRPC), or its base URL or `/v1/traces` URL (HTTP: the signal's path is used). */
  endpoint?: string;
  protocol: 'grpc' | 'http';
  headers?: Record<string, string>;
  grpcMetadata?: Metadata;
  resource: Resource;
  /** Deadline of one export request. */
  exportTimeoutMs: number;
}

/** The URL of a signal (`metrics`, `logs`) on an HTTP collector given its base or traces URL. */
export function httpSignalUrl(endpoint: string, signal: 'metrics' | 'logs'): string {
  const base = endpoint.replace(/\/$/, '').replace(/\/v1\/traces$/, '');
  return base.endsWith(`/v1/${signal}`) ? base : `${base}/v1/${signal}`;
}

/** Settles when `work` does or when `timeoutMs` has passed, whichever is first; never rejects. */
export async function bounded(work: Promise<unknown>, timeoutMs: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    work.catch(() => undefined),
    new Promise(resolve => (timer = setTimeout(resolve, Math.max(0, timeoutMs)))),
  ]);
  clearTimeout(timer);
}
