import { exportMetricsServiceRequest } from './otlp-proto.js';
import { attributesOf, nanos, type KeyValue, type Uint64 } from './otlp-values.js';

/** One data point of a received metric: a number (sum, gauge) or a histogram. */
export interface ReceivedPoint {
  readonly attributes: Readonly<Record<string, unknown>>;
  readonly startTimeUnixNano: bigint;
  readonly timeUnixNano: bigint;
  /** A sum's or gauge's value. */
  readonly value?: number;
  /** A histogram's count, sum, buckets and bounds. */
  readonly count?: number;
  readonly sum?: number;
  readonly min?: number;
  readonly max?: number;
  readonly bucketCounts?: readonly number[];
  readonly explicitBounds?: readonly number[];
}

/** A metric as the receiver decoded it, from one export request. */
export interface ReceivedMetric {
  readonly name: string;
  readonly description: string;
  readonly unit: string;
  readonly kind: 'sum' | 'gauge' | 'histogram';
  readonly temporality: 'UNSPECIFIED' | 'DELTA' | 'CUMULATIVE';
  /** True for a monotonic sum (a counter). */
  readonly monotonic: boolean;
  readonly points: readonly ReceivedPoint[];
  /** The instrumentation scope's name (the meter's). */
  readonly scope: string;
  /** The resource's attributes (`service.name`, …). */
  readonly resource: Readonly<Record<string, unknown>>;
}

interface DecodedNumberPoint {
  attributes?: KeyValue[];
  start_time_unix_nano?: Uint64;
  time_unix_nano?: Uint64;
  as_double?: number;
  as_int?: Uint64;
}
interface DecodedHistogramPoint {
  attributes?: KeyValue[];
  start_time_unix_nano?: Uint64;
  time_unix_nano?: Uint64;
  count?: Uint64;
  sum?: number;
  min?: number;
  max?: number;
  bucket_counts?: Uint64[];
  explicit_bounds?: number[];
}
interface DecodedMetric {
  name?: string;
  description?: string;
  unit?: string;
  gauge?: { data_points?: DecodedNumberPoint[] };
  sum?: {
    data_points?: DecodedNumberPoint[];
    aggregation_temporality?: number;
    is_monotonic?: boolean;
  };
  histogram?: { data_points?: DecodedHistogramPoint[]; aggregation_temporality?: number };
}
interface DecodedMetricsRequest {
  resource_metrics?: {
    resource?: { attributes?: KeyValue[] };
    scope_metrics?: { scope?: { name?: string }; metrics?: DecodedMetric[] }[];
  }[];
}

const temporalities = ['UNSPECIFIED', 'DELTA', 'CUMULATIVE'] as const;

function numberPoint(point: DecodedNumberPoint): ReceivedPoint {
  const value = Object.hasOwn(point, 'as_int')
    ? Number((point.as_int ?? 0).toString())
    : (point.as_double ?? 0);
  return {
    attributes: attributesOf(point.attributes),
    startTimeUnixNano: nanos(point.start_time_unix_nano),
    timeUnixNano: nanos(point.time_unix_nano),
    value,
  };
}

function histogramPoint(point: DecodedHistogramPoint): ReceivedPoint {
  const optional = (field: 'sum' | 'min' | 'max'): { [key: string]: number } =>
    Object.hasOwn(point, field) ? { [field]: point[field] ?? 0 } : {};
  return {
    attributes: attributesOf(point.attributes),
    startTimeUnixNano: nanos(point.start_time_unix_nano),
    timeUnixNano: nanos(point.time_unix_nano),
    count: Number(nanos(point.count)),
    ...optional('sum'),
    ...optional('min'),
    ...optional('max'),
    bucketCounts: (point.bucket_counts ?? []).map(count => Number(count.toString())),
    explicitBounds: [...(point.explicit_bounds ?? [])],
  };
}

function metricOf(
  metric: DecodedMetric,
  scope: string,
  resource: Record<string, unknown>,
): ReceivedMetric {
  const head = {
    name: metric.name ?? '',
    description: metric.description ?? '',
    unit: metric.unit ?? '',
    scope,
    resource,
  };
  // An unset field of the oneof reads as null from the prototype; only own fields were sent.
  if (Object.hasOwn(metric, 'histogram') && metric.histogram !== undefined)
    return {
      ...head,
      kind: 'histogram',
      temporality: temporalities[metric.histogram.aggregation_temporality ?? 0] ?? 'UNSPECIFIED',
      monotonic: false,
      points: (metric.histogram.data_points ?? []).map(histogramPoint),
    };
  if (Object.hasOwn(metric, 'sum') && metric.sum !== undefined)
    return {
      ...head,
      kind: 'sum',
      temporality: temporalities[metric.sum.aggregation_temporality ?? 0] ?? 'UNSPECIFIED',
      monotonic: metric.sum.is_monotonic ?? false,
      points: (metric.sum.data_points ?? []).map(numberPoint),
    };
  return {
    ...head,
    kind: 'gauge',
    temporality: 'UNSPECIFIED',
    monotonic: false,
    points: (metric.gauge?.data_points ?? []).map(numberPoint),
  };
}

/** Decodes an OTLP `ExportMetricsServiceRequest` into metrics. */
export function decodeMetricsRequest(bytes: Uint8Array): ReceivedMetric[] {
  const decoded = exportMetricsServiceRequest().decode(bytes) as unknown as DecodedMetricsRequest;
  const received: ReceivedMetric[] = [];
  for (const resourceMetrics of decoded.resource_metrics ?? []) {
    const resource = attributesOf(resourceMetrics.resource?.attributes);
    for (const scopeMetrics of resourceMetrics.scope_metrics ?? [])
      for (const metric of scopeMetrics.metrics ?? [])
        received.push(metricOf(metric, scopeMetrics.scope?.name ?? '', resource));
  }
  return received;
}
