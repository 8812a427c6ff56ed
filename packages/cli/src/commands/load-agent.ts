import { resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  isLanguageModel,
  type AnyAgent,
  type LanguageModel,
  type RunOptions,
} from '@agent-trace/core';
import { closeOpenConnections } from '@agent-trace/core/mcp/recorded';
import type { Workflow } from '@agent-trace/core/workflow';
import { isBridgedAgent, type BridgedAgent, type PlanTarget } from '@agent-trace/trace';
import { nearestName } from './nearest-name.js';

/**
 * The entry agent a module exports, and how to release what the module holds; or why it could not
 * be loaded (what it opened while loading is released already).
 */
export type LoadedAgent<Target = AnyAgent> =
  | {
      readonly ok: true;
      readonly agent: Target;
      /** The options the module runs its agent with (its `runOptions` export): prices, limits. */
      readonly runOptions: Omit<RunOptions, 'trace' | 'overrides'>;
      /** The model a regress goes on with from a divergence (its `continueWith` export). */
      readonly continueWith?: LanguageModel;
      /**
       * What looks wrong with the module's exports, a line each: a misspelt name (with the one
       * meant), a `runOptions` or `continueWith` of the wrong kind. The command prints them.
       */
      readonly warnings: readonly string[];
      readonly release: () => Promise<void>;
    }
  | { readonly ok: false; readonly message: string };

type AgentModule = {
  default?: unknown;
  dispose?: unknown;
  runOptions?: unknown;
  continueWith?: unknown;
};

/**
 * Releases what an agent module holds once the command is done with it: its `dispose` export,
 * or its default export's `Symbol.asyncDispose` / `Symbol.dispose`, then every connection
 * agent-trace opened for it and it left open (MCP servers). A release that fails is not the
 * command's failure: the report stands.
 */
async function releaseModule(module: AgentModule): Promise<void> {
  const exported = module.default as
    { [Symbol.asyncDispose]?: unknown; [Symbol.dispose]?: unknown } | undefined;
  const release =
    typeof module.dispose === 'function'
      ? module.dispose
      : typeof exported?.[Symbol.asyncDispose] === 'function'
        ? exported[Symbol.asyncDispose]
        : exported?.[Symbol.dispose];
  try {
    if (typeof release === 'function') await (release as () => unknown).call(exported);
  } catch {
    // The module's own clean-up failed; the connections below are still closed.
  }
  await closeOpenConnections();
}

const isAgent = (value: unknown): value is AnyAgent =>
  typeof value === 'object' && value !== null && 'toolRegistry' in value && 'model' in value;

const isWorkflow = (value: unknown): value is Workflow =>
  typeof value === 'object' &&
  value !== null &&
  !('toolRegistry' in value) &&
  Array.isArray((value as { steps?: unknown }).steps) &&
  typeof (value as { name?: unknown }).name === 'string';

const isPlan = (value: unknown): value is PlanTarget =>
  typeof value === 'object' &&
  value !== null &&
  !('toolRegistry' in value) &&
  isAgent((value as { planner?: unknown }).planner);

/** What else a module may export besides an entry agent. */
export interface Accepted {
  /** A workflow (`workflow()`, `loadWorkflow()`). */
  readonly workflows?: boolean;
  /** A planned run: `{ planner, tools, agents }`, as `planAndRun` takes them. */
  readonly plans?: boolean;
  /** An agent of another framework, as its bridge wraps it (`aiSdkAgent(...)`). */
  readonly bridged?: boolean;
}

let registered = false;

/**
 * Imports a TypeScript or JavaScript module into this process's module graph, TypeScript compiled
 * on the fly (tsx's hooks, registered once): the module then shares this CLI's copy of
 * `@agent-trace/core` (an isolated import would load a second one).
 */
export async function importModule(modulePath: string): Promise<AgentModule> {
  const { register } = await import('tsx/esm/api');
  if (!registered) {
    registered = true;
    register();
  }
  return (await import(pathToFileURL(resolve(modulePath)).href)) as AgentModule;
}

/**
 * Loads the entry agent of a TypeScript or JavaScript module: its default export, an agent or a
 * function that returns one; with `accept`, a workflow or a planned run instead. TypeScript is
 * compiled on the fly (tsx). A module may also export `runOptions` (what it runs its agent with:
 * `prices`, limits), `dispose` (what closes what it opened) and `continueWith` (the model a
 * regress goes on with from a divergence: a cassette's, in tests).
 */
export async function loadAgent(modulePath: string): Promise<LoadedAgent>;
export async function loadAgent(
  modulePath: string,
  accept: Accepted,
): Promise<LoadedAgent<AnyAgent | Workflow | PlanTarget | BridgedAgent>>;
export async function loadAgent(
  modulePath: string,
  accept: Accepted = {},
): Promise<LoadedAgent<AnyAgent | Workflow | PlanTarget | BridgedAgent>> {
  let module: AgentModule;
  try {
    module = await importModule(modulePath);
  } catch (error) {
    await closeOpenConnections();
    return {
      ok: false,
      message: `Cannot load agent module '${modulePath}': ${loadErrorText(error)}. Check the path and that the module runs on its own.`,
    };
  }
  const release = () => releaseModule(module);
  const runOptions =
    typeof module.runOptions === 'object' && module.runOptions !== null
      ? (module.runOptions as Omit<RunOptions, 'trace' | 'overrides'>)
      : {};
  const exported =
    typeof module.default === 'function' ? (module.default as () => unknown)() : module.default;
  const loaded = {
    runOptions,
    release,
    warnings: exportWarnings(modulePath, module),
    ...(isLanguageModel(module.continueWith) ? { continueWith: module.continueWith } : {}),
  };
  if (accept.workflows === true && isWorkflow(exported))
    return { ok: true, agent: exported, ...loaded };
  if (accept.plans === true && isPlan(exported)) return { ok: true, agent: exported, ...loaded };
  if (accept.bridged === true && isBridgedAgent(module.default))
    return { ok: true, agent: module.default, ...loaded };
  if (!isAgent(exported)) {
    await release();
    return { ok: false, message: noAgent(modulePath, accept) };
  }
  return { ok: true, agent: exported, ...loaded };
}

/**
 * Why a module could not be loaded, for people: paths under the working folder made relative,
 * and what only says where inside agent-trace the import was made (or Node's require stack) left
 * out.
 */
export function loadErrorText(error: unknown): string {
  const cwd = process.cwd();
  return (error instanceof Error ? error.message : String(error))
    .replace(/\nRequire stack:[\s\S]*$/, '')
    .replace(/ imported from \S*\/(?:packages\/cli|@agent-trace\/cli)\/\S*/, '')
    .replaceAll(`${pathToFileURL(cwd).href}/`, './')
    .replaceAll(`${cwd}${sep}`, `.${sep}`)
    .trim()
    .replace(/\.$/, '');
}

/** The exports an agent module may have that the commands read. */
const knownExports = ['default', 'runOptions', 'continueWith', 'dispose'];

/** What looks wrong with a module's exports, a line each. */
function exportWarnings(modulePath: string, module: AgentModule): string[] {
  const warnings: string[] = [];
  for (const name of Object.keys(module)) {
    if (knownExports.includes(name)) continue;
    const meant = nearestName(name, knownExports);
    if (meant !== undefined)
      warnings.push(
        `warning: agent module '${modulePath}' exports '${name}', which agent-trace does not read: did you mean '${meant}'?`,
      );
  }
  if (
    'runOptions' in module &&
    (typeof module.runOptions !== 'object' || module.runOptions === null)
  )
    warnings.push(
      `warning: agent module '${modulePath}' exports runOptions that is not an object of run options; it is not used.`,
    );
  if ('continueWith' in module && !isLanguageModel(module.continueWith))
    warnings.push(
      `warning: agent module '${modulePath}' exports continueWith that is not a model (a LanguageModel, e.g. model('openai:gpt-4o-mini')); it is not used.`,
    );
  return warnings;
}

/** What a module lacking an agent should export instead: each kind `accept` takes, with how. */
function noAgent(modulePath: string, accept: Accepted): string {
  const kinds: [string, string][] = [
    [
      'an agent',
      'the entry agent of the graph: export default agent({ ... }) (or a function that returns it)',
    ],
    ...(accept.workflows === true
      ? ([['a workflow', 'a workflow: export default loadWorkflow(...)']] as [string, string][])
      : []),
    ...(accept.plans === true
      ? ([['a planned run', 'a planned run: export default { planner, tools, agents }']] as [
          string,
          string,
        ][])
      : []),
    ...(accept.bridged === true
      ? ([
          [
            'an agent of another framework',
            'an agent of another framework: export default aiSdkAgent(...)',
          ],
        ] as [string, string][])
      : []),
  ];
  const list = (items: string[]) =>
    items.length === 1 ? items[0] : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
  return `Agent module '${modulePath}' has no default export that is ${list(kinds.map(([kind]) => kind))}. Export ${list(kinds.map(([, how]) => how))}.`;
}
