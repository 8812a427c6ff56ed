import type * as Yaml from 'yaml';
import { ConfigurationError } from '../kernel/errors/configuration-error.js';

let loaded: typeof Yaml | undefined;

/**
 * Gives the workflow loader the `yaml` package, an optional peer: `@agent-trace/core/workflow`
 * loads it (saying what to install when it is missing) before anything reads a workflow file.
 */
export function provideYaml(module: typeof Yaml): void {
  loaded = module;
}

/** The `yaml` package the workflow entry loaded. */
export function yaml(): typeof Yaml {
  if (loaded === undefined)
    throw new ConfigurationError({
      option: 'workflow',
      message:
        "Workflows are read with the optional peer 'yaml', which loads with @agent-trace/core/workflow: import loadWorkflow and the rest from '@agent-trace/core/workflow'.",
    });
  return loaded;
}
