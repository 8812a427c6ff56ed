import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { AgentTraceError } from '@agent-trace/core';
import { addToDataset } from '@agent-trace/evals';
import { send, sendJson } from './http.js';
import { notText, postedJson } from './posted-json.js';
import type { RunSource } from './run-sources.js';

/** A dataset's name as a page gives it: a file name in the datasets folder, `.jsonl` or not. */
const datasetName = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * Adds the run a served page posts (`{ run, dataset }`) to a dataset of the served datasets folder
 * (`agent-trace dataset add <folder>/<dataset>.jsonl --from <library> --run <run>`); only from a
 * page this server served (see `postedJson`), and only for a served library.
 */
export async function answerDataset(
  source: RunSource,
  datasets: string | undefined,
  token: string | undefined,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const fields = await postedJson(token, request, response);
  if (fields === undefined) return;
  if (datasets === undefined || source.folder === undefined)
    return send(
      response,
      404,
      'text/plain',
      'This server adds to no datasets: serve a folder with --datasets.',
    );
  const wrong =
    notText(fields, ['run', 'dataset']) ??
    (typeof fields.run !== 'string' || typeof fields.dataset !== 'string'
      ? 'Name the run and the dataset.'
      : !datasetName.test(fields.dataset)
        ? `'${fields.dataset}' is not a dataset name: letters, digits, '.', '-' and '_', e.g. refunds.`
        : undefined);
  if (wrong !== undefined) return send(response, 400, 'text/plain; charset=utf-8', wrong);
  const name = String(fields.dataset);
  const file = join(datasets, name.endsWith('.jsonl') ? name : `${name}.jsonl`);
  try {
    const added = await addToDataset(file, { from: source.folder, runs: [String(fields.run)] });
    sendJson(response, { ...added, file: name.endsWith('.jsonl') ? name : `${name}.jsonl` });
  } catch (error) {
    if (!AgentTraceError.isInstance(error)) throw error;
    send(response, 400, 'text/plain; charset=utf-8', error.message);
  }
}
