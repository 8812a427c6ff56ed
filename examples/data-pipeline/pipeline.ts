import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadWorkflow, type Workflow } from '@agent-trace/core/workflow';
import { pipelineTools } from './tools.js';

/** workflow.yaml, loaded and checked with the pipeline's tools (what `agent-trace rerun --agent` takes). */
export default function pipeline(): Workflow {
  const file = join(dirname(fileURLToPath(import.meta.url)), 'workflow.yaml');
  return loadWorkflow(readFileSync(file, 'utf8'), { file, tools: pipelineTools });
}
