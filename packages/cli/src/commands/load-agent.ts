import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AnyAgent, Workflow } from '@agent-trace/core';

/** The entry agent a module exports, or why it could not be loaded. */
export type LoadedAgent<Target = AnyAgent> =
  { readonly ok: true; readonly agent: Target } | { readonly ok: false; readonly message: string };

const isAgent = (value: unknown): value is AnyAgent =>
  typeof value === 'object' && value !== null && 'toolRegistry' in value && 'model' in value;

const isWorkflow = (value: unknown): value is Workflow =>
  typeof value === 'object' &&
  value !== null &&
  !('toolRegistry' in value) &&
  Array.isArray((value as { steps?: unknown }).steps) &&
  typeof (value as { name?: unknown }).name === 'string';

let registered = false;

function registerOnce(register: () => unknown): void {
  if (registered) return;
  registered = true;
  register();
}

/**
 * Loads the entry agent of a TypeScript or JavaScript module: its default export, an agent or a
 * function that returns one. TypeScript is compiled on the fly (tsx).
 */
export async function loadAgent(modulePath: string): Promise<LoadedAgent>;
/** With `workflows`: the module may export a workflow (`workflow()`, `loadWorkflow()`) instead. */
export async function loadAgent(
  modulePath: string,
  accept: { readonly workflows: true },
): Promise<LoadedAgent<AnyAgent | Workflow>>;
export async function loadAgent(
  modulePath: string,
  accept: { readonly workflows: boolean } = { workflows: false },
): Promise<LoadedAgent<AnyAgent | Workflow>> {
  const absolute = resolve(modulePath);
  let module: { default?: unknown };
  try {
    // Register tsx's hooks and import into this process's module graph: the agent then shares
    // this CLI's copy of @agent-trace/core (an isolated import would load a second one).
    const { register } = await import('tsx/esm/api');
    registerOnce(register);
    module = (await import(pathToFileURL(absolute).href)) as { default?: unknown };
  } catch (error) {
    return {
      ok: false,
      message: `Cannot load agent module '${modulePath}': ${error instanceof Error ? error.message : String(error)}. Check the path and that the module runs on its own.`,
    };
  }
  const exported =
    typeof module.default === 'function' ? (module.default as () => unknown)() : module.default;
  if (accept.workflows && isWorkflow(exported)) return { ok: true, agent: exported };
  if (!isAgent(exported)) {
    return {
      ok: false,
      message: `Agent module '${modulePath}' has no default export that is an agent${accept.workflows ? ' or a workflow' : ''}. Export the entry agent of the graph: export default agent({ ... })${accept.workflows ? ', or the workflow: export default loadWorkflow(...)' : ''}, or a function that returns it.`,
    };
  }
  return { ok: true, agent: exported };
}
