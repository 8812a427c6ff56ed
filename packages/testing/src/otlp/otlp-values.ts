/** Decoding helpers shared by the trace and metrics halves of the OTLP receiver. */

export interface AnyValue {
  string_value?: string;
  bool_value?: boolean;
  int_value?: { toString(): string } | number;
  double_value?: number;
  array_value?: { values?: AnyValue[] };
  kvlist_value?: { values?: KeyValue[] };
  bytes_value?: Uint8Array;
}
export interface KeyValue {
  key: string;
  value?: AnyValue;
}

function valueOf(value: AnyValue | undefined): unknown {
  if (value === undefined) return undefined;
  // Decoded messages keep defaults on the prototype: only own properties were on the wire.
  const has = (field: keyof AnyValue): boolean => Object.hasOwn(value, field);
  if (has('string_value')) return value.string_value;
  if (has('bool_value')) return value.bool_value;
  if (has('int_value')) return Number(value.int_value?.toString());
  if (has('double_value')) return value.double_value;
  if (has('array_value')) return (value.array_value?.values ?? []).map(valueOf);
  if (has('kvlist_value')) return attributesOf(value.kvlist_value?.values);
  if (has('bytes_value')) return Buffer.from(value.bytes_value ?? []).toString('hex');
  return undefined;
}

export function attributesOf(list: KeyValue[] | undefined): Record<string, unknown> {
  const attributes: Record<string, unknown> = {};
  for (const { key, value } of list ?? []) attributes[key] = valueOf(value);
  return attributes;
}

export const hex = (bytes: Uint8Array | undefined): string =>
  bytes === undefined ? '' : Buffer.from(bytes).toString('hex');
/** protobufjs hands 64-bit fields over as `Long`, string or number depending on options. */
export type Uint64 = string | number | { toString(): string };
export const nanos = (value: Uint64 | undefined): bigint => BigInt((value ?? 0).toString());
