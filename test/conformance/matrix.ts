/**
 * The conformance matrix: every agent shape the toolkit supports, by group. Each group's test file
 * checks its shapes (`check-shape.ts`), and the guide's table is generated from this list
 * (`pnpm conformance:table`; `table.test.ts` fails when the guide is out of date). A false
 * divergence found later becomes a row here first.
 */
import type { Shape } from './harness/shape.js';

const one = async (module: Promise<{ shape: Shape }>): Promise<Shape> => (await module).shape;

/** The groups of rows, in the table's order; each loads its shapes when asked. */
export const matrix = {
  native: async () =>
    Promise.all([
      one(import('./shapes/native-tools.js')),
      one(import('./shapes/parallel-tools.js')),
      one(import('./shapes/tool-retries.js')),
      one(import('./shapes/tool-refusal.js')),
      one(import('./shapes/live-record.js')),
      one(import('./shapes/collection-results.js')),
    ]),
  mcp: async () => {
    const { mcpStdio, mcpHttp, mcpGone } = await import('./shapes/mcp.js');
    return [mcpStdio, mcpHttp, mcpGone];
  },
  multiAgent: async () =>
    Promise.all([
      one(import('./shapes/handoff-chain.js')),
      one(import('./shapes/agent-as-tool.js')),
      one(import('./shapes/router.js')),
      one(import('./shapes/delegate-stopped.js')),
    ]),
  features: async () =>
    Promise.all([
      one(import('./shapes/guardrails.js')),
      one(import('./shapes/structured-output.js')),
      one(import('./shapes/streaming.js')),
      one(import('./shapes/react-mode.js')),
      one(import('./shapes/cassette-model.js')),
    ]),
  limits: async () => {
    const { shape, sharedBudget } = await import('./shapes/budget-stop.js');
    const { shape: breakerRuns, acrossTurns } = await import('./shapes/breaker-across-runs.js');
    const { shape: concurrentBudget } = await import('./shapes/concurrent-budget.js');
    return [shape, sharedBudget, concurrentBudget, breakerRuns, acrossTurns];
  },
  approvals: async () => (await import('./shapes/approvals.js')).approvalShapes,
  workflows: async () =>
    Promise.all([
      one(import('./shapes/workflow.js')),
      import('./shapes/workflow.js').then(module => module.freshParts),
      one(import('./shapes/planned-run.js')),
      one(import('./shapes/several-runs.js')),
    ]),
  conversations: async () => {
    const { shape, acrossProcesses } = await import('./shapes/conversation.js');
    const { shape: simulated } = await import('./shapes/simulated-user.js');
    return [shape, acrossProcesses, simulated];
  },
  aiSdk: async () => {
    const { aiSdkShape } = await import('./shapes/ai-sdk-desk.js');
    const { shape: twice } = await import('./shapes/ai-sdk-twice.js');
    return [aiSdkShape('generate'), aiSdkShape('stream'), twice];
  },
  bridges: async () => {
    const { agentsSdk, agentsSdkWithTrace, langgraphPrebuilt, langgraphParallel } =
      await import('./shapes/bridges.js');
    const { shape: agentsTwice } = await import('./shapes/openai-agents-twice.js');
    const { shape: langgraphTwice } = await import('./shapes/langgraph-twice.js');
    return [
      agentsSdk,
      agentsSdkWithTrace,
      agentsTwice,
      langgraphPrebuilt,
      langgraphTwice,
      langgraphParallel,
    ];
  },
  imported: async () => [
    await one(import('./shapes/imported-otlp.js')),
    await one(import('./shapes/imported-backend.js')),
  ],
  found: async () => (await import('./found/index.js')).foundShapes(),
} satisfies Record<string, () => Promise<Shape[]>>;

const yes = '✓';
const na = '—';

/** The guide's table of the matrix: a row a shape, a column a check. */
export async function matrixTable(): Promise<string> {
  const lines = [
    '| shape | record validates | rerun unchanged: same, 3 times through the API and 3 through the CLI, which ends by itself | planted changes caught at the right step, in words | fork after step k |',
    '| --- | --- | --- | --- | --- |',
  ];
  for (const group of Object.values(matrix))
    for (const shape of await group()) {
      const changes = Object.keys(shape.changes);
      const runs = (shape.runs ?? 1) > 1 ? ` (${shape.runs} runs)` : '';
      lines.push(
        `| ${shape.name} | ${yes} | ${yes}${runs}${shape.liveTools === true ? ', and with the real tools' : ''} | ${changes.length === 0 ? na : changes.join(', ')} | ${shape.fork === undefined ? na : `${yes} k = ${shape.fork.afterStep}`} |`,
      );
    }
  return lines.join('\n');
}
