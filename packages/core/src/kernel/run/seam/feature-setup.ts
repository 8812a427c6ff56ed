import { ConfigurationError } from '../../errors/configuration-error.js';
import { ModelCallError } from '../../errors/model-call-error.js';
import { ToolCallError } from '../../errors/tool-call-error.js';
import { featureNamePattern } from '../../protocol/feature-trace-events.js';
import type { Usage } from '../../protocol/usage.js';
import type { CostTally } from '../../protocol/cost-tally.js';
import type { KernelOptions } from '../frame/kernel-options.js';
import { featureVersion, type Feature, type FeatureSetup } from './feature.js';
import { emitFeatureEvent } from './feature-context.js';
import { keptEventName, KeptStateLog, type RecordedKeptState } from './kept-state.js';
import type { RunFeature } from './seam.js';

/** What a run gives each feature as it starts. */
interface RunStart<Options extends object> {
  readonly options: KernelOptions & Options;
  readonly totals: { readonly usage: Usage; readonly cost: CostTally };
}

/**
 * The hooks each feature gives a run, with its name; a feature written for another contract, or
 * with a name its events cannot carry, is refused before the run starts.
 */
export function featuresForRun<Options extends object>(
  features: readonly Feature<Options>[],
  start: RunStart<Options>,
): RunFeature[] {
  const taking: RunFeature[] = [];
  // In a rerun, what the recording's part of the run read of the features' kept state.
  const recorded = start.options.overrides?.keptState?.();
  for (const feature of features) {
    checkFeature(feature);
    const hooks = feature.forRun(featureSetup(feature.name, start, recorded));
    if (hooks !== undefined) taking.push({ name: feature.name, hooks });
  }
  return taking;
}

function checkFeature(feature: Feature<object>): void {
  const { name, version } = feature as { name?: unknown; version?: unknown };
  if (typeof name !== 'string' || !featureNamePattern.test(name))
    throw new ConfigurationError({
      option: 'features',
      message: `A feature's name must be lower case letters, digits, '-', '_' or '.' (its events and refusals carry it); got ${JSON.stringify(name)}. Rename the feature.`,
    });
  if (version !== featureVersion)
    throw new ConfigurationError({
      option: 'features',
      message: `Feature '${name}' is written for feature contract ${version === undefined ? '1 (it has no version)' : JSON.stringify(version)}; this release speaks version ${featureVersion}, whose hooks are each given one object. Add \`version: ${featureVersion}\` and give each hook one parameter (see "From version 1" in the features guide).`,
    });
}

/** What feature `name` is given as a run starts: the run's options and totals, and its own words. */
function featureSetup<Options extends object>(
  name: string,
  { options, totals }: RunStart<Options>,
  recorded: RecordedKeptState | undefined,
): FeatureSetup<Options> {
  return {
    options,
    totals,
    kept: new KeptStateLog(name, recorded),
    emit: (at, event, data) => {
      ownName(name, event, 'event');
      if (event === keptEventName)
        throw new ConfigurationError({
          option: 'features',
          message: `Feature '${name}' gave the event name '${keptEventName}', which records reads of kept state (setup.kept.read). Name the event otherwise.`,
        });
      emitFeatureEvent(
        at.record,
        data === undefined ? { feature: name, name: event } : { feature: name, name: event, data },
      );
    },
    refuseTool: ({ toolName, kind, message }) =>
      new ToolCallError({
        kind: 'refused',
        toolName,
        message,
        refusal: { feature: name, kind: ownName(name, kind, 'refusal kind') },
      }),
    refuseModel: ({ kind, message }) =>
      new ModelCallError({
        kind: 'refused',
        message,
        isRetryable: false,
        refusal: { feature: name, kind: ownName(name, kind, 'refusal kind') },
      }),
  };
}

/** A name the feature gives an event or a refusal: checked as the trace stores it. */
function ownName(feature: string, given: string, what: string): string {
  if (featureNamePattern.test(given)) return given;
  throw new ConfigurationError({
    option: 'features',
    message: `Feature '${feature}' gave the ${what} ${JSON.stringify(given)}; a ${what} is lower case letters, digits, '-', '_' or '.'.`,
  });
}
