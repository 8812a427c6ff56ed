/** The packages the CLI needs for some commands only, installed beside it (its optional peers). */
const optionalPackages = ['@agent-trace/evals', '@agent-trace/viewer'] as const;

/** A command needs a package of agent-trace that is not installed beside the CLI. */
export class MissingPackageError extends Error {
  constructor(command: string, missing: string) {
    super(
      `agent-trace ${command} needs the package '${missing}', which is not installed. Install it beside @agent-trace/cli, at the same version: npm install -D ${missing} (from packed tarballs: give its .tgz on the same npm install line as the CLI's).`,
    );
    this.name = 'MissingPackageError';
  }
}

/** Whether `error` says that `name` could not be found. */
function isMissing(error: unknown, name: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (
    (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
    typeof message === 'string' &&
    message.includes(`'${name}`)
  );
}

/**
 * Loads what a command needs; when an optional package of the CLI is missing, throws a
 * {@link MissingPackageError} naming it and how to install it, instead of Node's own error.
 */
export async function loadOptional<T>(command: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const missing = optionalPackages.find(name => isMissing(error, name));
    if (missing === undefined) throw error;
    throw new MissingPackageError(command, missing);
  }
}
