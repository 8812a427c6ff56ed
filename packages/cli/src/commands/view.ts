import { spawn } from 'node:child_process';
import { stat, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { diffView, traceView, viewerHtml, type ViewerData } from '@agent-trace/viewer';
import { exitCodes, type CommandResult } from './command-result.js';
import { unreadableTrace } from './trace-input.js';
import { pageLimitMb } from './page-limit.js';

/** Options of {@link viewCommand}. */
export interface ViewCommandOptions {
  /** A second trace: the page compares the first with it, run by run. */
  readonly diff?: string;
  /** Where the page is written. @defaultValue the first trace's path with `.html` (`.diff.html` for a diff) */
  readonly out?: string;
  /** Open the page in the default browser. */
  readonly open: boolean;
  readonly env: NodeJS.ProcessEnv;
  /** The most trace, in MiB, a single page is made of. @defaultValue {@link pageLimitMb} */
  readonly maxPageMb?: number;
}

/** The page's default path: the trace's, with `.html`. */
function defaultOut(file: string, diff: string | undefined): string {
  const stem = file.replace(/\.jsonl$/i, '');
  return `${stem}${diff === undefined ? '' : '.diff'}.html`;
}

/**
 * `agent-trace view <trace.jsonl>… [--diff <b.jsonl>]`: writes one self-contained HTML page of the
 * traces (runs, waterfall, inspector, agent graph) or of a comparison, and opens it. Exit 0,
 * 2 when a trace cannot be read or the page cannot be written.
 */
export async function viewCommand(
  files: readonly string[],
  options: ViewCommandOptions,
): Promise<CommandResult> {
  const [first] = files;
  if (first === undefined)
    return {
      exitCode: exitCodes.unreadable,
      stdout: '',
      stderr:
        'Give a trace to view, e.g. agent-trace view traces/demo.jsonl, or serve a folder of traces: agent-trace serve traces',
    };
  if (options.diff !== undefined && files.length > 1)
    return {
      exitCode: exitCodes.unreadable,
      stdout: '',
      stderr: `--diff compares one trace with another: give one trace before it (got ${files.length}).`,
    };
  const limitMb = options.maxPageMb ?? pageLimitMb;
  if (!(Number.isFinite(limitMb) && limitMb > 0))
    return {
      exitCode: exitCodes.unreadable,
      stdout: '',
      stderr: `Invalid --max-page-mb ${String(options.maxPageMb)}: expected a number of megabytes above 0, e.g. --max-page-mb 512.`,
    };
  const tooBig = await pageTooBig(
    options.diff === undefined ? files : [first, options.diff],
    limitMb,
    options.diff === undefined,
  );
  if (tooBig !== undefined) return { exitCode: exitCodes.unreadable, stdout: '', stderr: tooBig };
  let data: ViewerData;
  try {
    data =
      options.diff === undefined ? await traceView(files) : await diffView(first, options.diff);
  } catch (error) {
    const file = (error as { file?: unknown }).file;
    return unreadableTrace(error, typeof file === 'string' ? file : first);
  }
  const out = options.out ?? defaultOut(first, options.diff);
  return writePage(data, out, options, () => tooBigMessage(files, undefined, true));
}

/**
 * Writes a page of `data` to `out` and opens it (not under CI), printing its path and address.
 * `tooBig` says what to do when the data makes a page larger than a string can hold.
 */
export async function writePage(
  data: ViewerData,
  out: string,
  options: { readonly open: boolean; readonly env: NodeJS.ProcessEnv },
  tooBig: () => string,
): Promise<CommandResult> {
  let html: string;
  try {
    html = viewerHtml(data);
  } catch (error) {
    // Only a string past the engine's length is a page too big; any other RangeError is a bug.
    if (!(error instanceof RangeError && /Invalid string length/.test(error.message))) throw error;
    return { exitCode: exitCodes.unreadable, stdout: '', stderr: tooBig() };
  }
  try {
    await writeFile(out, html);
  } catch (error) {
    return {
      exitCode: exitCodes.unreadable,
      stdout: '',
      stderr: `Cannot write the page to '${out}': ${error instanceof Error ? error.message : String(error)}. Choose another place with --out.`,
    };
  }
  const url = pathToFileURL(resolve(out)).href;
  // The address is printed whether or not a browser opens: an opener can fail after it starts.
  if (options.open && options.env.CI === undefined) openInBrowser(url, options.env);
  return { exitCode: exitCodes.ok, stdout: `wrote ${out}\n${url}`, stderr: '' };
}

/**
 * Why the traces are too big for one page, or undefined when they fit. Checked on their size on
 * disk before anything is read, so a huge trace is refused at once, not after filling memory.
 */
async function pageTooBig(
  files: readonly string[],
  limitMb: number,
  servable: boolean,
): Promise<string | undefined> {
  const bytes = await tracesBytes(files);
  return bytes > limitMb * 2 ** 20 ? tooBigMessage(files, { bytes, limitMb }, servable) : undefined;
}

/**
 * The line `view` prints when it serves the traces instead of writing a page (they are past the
 * page's size), or undefined when they make a page.
 */
export async function servedInstead(
  files: readonly string[],
  limitMb: number,
): Promise<string | undefined> {
  const bytes = await tracesBytes(files);
  if (bytes <= limitMb * 2 ** 20) return undefined;
  const what = files.length === 1 ? (files[0] as string) : `${files.length} traces`;
  return `${what}: ${megabytes(bytes)}, more than one page is made of (${limitMb} MB), so it is served instead: its rows are read in windows as you scroll.`;
}

/** The traces' size on disk (a file that cannot be read counts nothing: reading it says why). */
async function tracesBytes(files: readonly string[]): Promise<number> {
  let bytes = 0;
  for (const file of files)
    bytes += await stat(file).then(
      found => found.size,
      () => 0,
    );
  return bytes;
}

function megabytes(bytes: number): string {
  const mb = bytes / 2 ** 20;
  if (mb >= 1024) return `${(mb / 1024).toFixed(2)} GB`;
  return `${mb < 10 ? mb.toFixed(2) : mb.toFixed(0)} MB`;
}

function tooBigMessage(
  files: readonly string[],
  size: { readonly bytes: number; readonly limitMb: number } | undefined,
  servable: boolean,
): string {
  const what = files.length === 1 ? (files[0] as string) : `${files.length} traces`;
  const measured =
    size === undefined
      ? `${what} make a page larger than one page can hold`
      : `${what} ${files.length === 1 ? 'is' : 'are'} ${megabytes(size.bytes)}, more than one page is made of (${size.limitMb} MB: a page holds its trace whole, in one string and in the browser tab)`;
  const folder = dirname(files[0] ?? '.');
  const serve = servable
    ? `agent-trace view ${files.join(' ')} (without --out: it is served, its rows read in windows), or its folder: agent-trace serve ${folder}`
    : `agent-trace serve ${folder}, and open each from the list`;
  return `${measured}. Serve it instead: ${serve}. Or raise the limit with --max-page-mb.`;
}

/** Opens a URL with `$BROWSER` or the platform's opener, if it can; a failure is ignored. */
export function openInBrowser(url: string, env: NodeJS.ProcessEnv): void {
  const [command, ...args] =
    env.BROWSER !== undefined && env.BROWSER !== ''
      ? [env.BROWSER, url]
      : process.platform === 'darwin'
        ? ['open', url]
        : process.platform === 'win32'
          ? ['cmd', '/c', 'start', '""', url]
          : ['xdg-open', url];
  if (command === undefined) return;
  try {
    const child = spawn(command, args, { detached: true, stdio: 'ignore' });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // No opener: the printed address is enough.
  }
}
