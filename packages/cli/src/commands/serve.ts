import { serveFiles, serveLibrary, type ServedViewer } from '@agent-trace/viewer';
import { exitCodes, type CommandResult } from './command-result.js';

/** Options of {@link serveCommand}. */
export interface ServeCommandOptions {
  readonly port: number;
  /** The address to listen on. @defaultValue '127.0.0.1' */
  readonly host?: string;
  /** Prints a line (progress, the address). */
  readonly write: (line: string) => void;
  /** Stops the server (Ctrl-C). */
  readonly signal: AbortSignal;
  /** Told the address once serving (`view` opens it in the browser). */
  readonly onServing?: (url: string) => void;
}

/** What is served: a folder's trace library, or some trace files too big for one page. */
export type Served =
  { readonly folder: string; readonly datasets?: string } | { readonly files: readonly string[] };

/**
 * `agent-trace serve [folder]` (and `view` of a trace too big for one page): serves the viewer on
 * 127.0.0.1 until stopped. A folder is indexed first (incrementally), then kept up to date as
 * files are written. Exit 0 when stopped, 2 when it cannot be served.
 */
export async function serveCommand(
  served: Served,
  options: ServeCommandOptions,
): Promise<CommandResult> {
  const { port } = options;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    return {
      exitCode: exitCodes.unreadable,
      stdout: '',
      stderr: `Invalid --port ${String(port)}: expected a whole number from 0 to 65535, e.g. --port 7400 (0 picks a free one).`,
    };
  let server: ServedViewer;
  try {
    server =
      'folder' in served
        ? await serveLibrary(served.folder, {
            port,
            ...(served.datasets === undefined ? {} : { datasets: served.datasets }),
            ...(options.host === undefined ? {} : { host: options.host }),
            onProgress: ({ filesRead, filesToRead }) =>
              options.write(`indexing ${served.folder}: ${filesRead} of ${filesToRead} files`),
            onProblems: problems =>
              options.write(problems.map(line => `warning: ${line}`).join('\n')),
          })
        : await serveFiles(served.files, {
            port,
            ...(options.host === undefined ? {} : { host: options.host }),
          });
  } catch (error) {
    return {
      exitCode: exitCodes.unreadable,
      stdout: '',
      stderr: error instanceof Error ? error.message : String(error),
    };
  }
  const what = 'folder' in served ? `the traces of ${served.folder}` : served.files.join(', ');
  options.write(`serving ${what} at ${server.url} (Ctrl-C stops)`);
  options.onServing?.(server.url);
  await new Promise(stop => {
    if (options.signal.aborted) stop(undefined);
    options.signal.addEventListener('abort', stop, { once: true });
  });
  await server.close();
  return { exitCode: exitCodes.ok, stdout: '', stderr: '' };
}
