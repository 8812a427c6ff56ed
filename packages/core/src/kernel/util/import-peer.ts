import { AgentTraceError } from '../errors/agent-trace-error.js';

/** An optional peer package that a part of agent-trace needs is not installed. */
export class MissingPeerError extends AgentTraceError {
  readonly peer: string;

  /**
   * @param runtime - the application needs the package when it runs (a model provider's SDK, the
   *   MCP SDK, yaml), so it is advised as a dependency; else as a development one (test tools)
   */
  constructor(peer: string, needer: string, range: string, cause: unknown, runtime = false) {
    super({
      message: runtime
        ? `${needer} needs the package '${peer}' (${range}), which is not installed. Install it: npm install ${peer}@'${range}' (or pnpm add / yarn add).`
        : `${needer} needs the package '${peer}' (${range}), which is not installed. Install it: npm install --save-dev ${peer}@'${range}' (or pnpm add -D / yarn add -D).`,
      cause,
    });
    this.name = 'MissingPeerError';
    this.peer = peer;
  }
}

/**
 * Loads an optional peer package, failing with a {@link MissingPeerError} that says what to
 * install instead of Node's bare `ERR_MODULE_NOT_FOUND`. Entry points that need a peer await it
 * before loading the code that imports it. `load` is the caller's own `() => import('msw')`, so
 * the package is resolved from the package that needs it.
 *
 * @param peer - the package, e.g. `msw`
 * @param needer - what needs it, e.g. `@agent-trace/testing/msw`
 * @param range - the versions that work, e.g. `^2.10.0`
 * @param runtime - the application needs it when it runs (advised as a dependency), not only in
 *   its tests (advised as a development dependency)
 */
export async function importPeer<Module>(
  load: () => Promise<Module>,
  {
    peer,
    needer,
    range,
    runtime = false,
  }: { peer: string; needer: string; range: string; runtime?: boolean },
): Promise<Module> {
  try {
    return await load();
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    const missing =
      (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
      String((error as Error).message).includes(`'${peer}'`);
    if (missing) throw new MissingPeerError(peer, needer, range, error, runtime);
    throw error;
  }
}
