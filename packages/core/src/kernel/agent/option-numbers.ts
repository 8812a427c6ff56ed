import { ConfigurationError } from '../errors/configuration-error.js';

/** An agent option that must be an integer of at least 1; a `ConfigurationError` naming it if not. */
export function positiveInteger(
  agentName: string,
  option: string,
  value: number,
  group = 'limits',
): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new ConfigurationError({
      option: `${group}.${option}`,
      message: `Invalid ${group}.${option} for agent '${agentName}': expected an integer of at least 1 (actual: ${String(value)}).`,
    });
  }
  return value;
}

/** An agent option that must be a number of at least 0; a `ConfigurationError` naming it if not. */
export function nonNegative(
  agentName: string,
  option: string,
  value: number,
  group = 'retry',
): number {
  if (!Number.isFinite(value) || value < 0) {
    throw new ConfigurationError({
      option: `${group}.${option}`,
      message: `Invalid ${group}.${option} for agent '${agentName}': expected a number of at least 0 (actual: ${String(value)}).`,
    });
  }
  return value;
}
