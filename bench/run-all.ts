/**
 * `pnpm bench`: agent-trace against the OpenAI Agents SDK and the Vercel AI SDK, the trace
 * pipeline against its raw limits, replay of a long run, and step flatness. Prints the tables and
 * the targets met or missed, and writes bench/results/latest.json. Numbers, not assertions: it is
 * not part of the test suite. `pnpm bench --quick` measures less (smaller runs and files: about two
 * minutes instead of ten).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import {
  formatLoopVsPeers,
  formatModes,
  jsonlShareOfFastestPeer,
  measureLoopVsPeers,
} from './loop-vs-peers.js';
import { ratio, runWorker } from './measure.js';
import { compiledWorker } from './compiled.js';
import { formatMcpCall, mcpShareOverDirect, type McpCallResult } from './mcp-call.js';
import { formatManyRuns, manyRunsRssTargetMb, measureManyRuns } from './many-runs.js';
import { formatOtelModes, measureOtelModes } from './otel-modes.js';
import { formatReplay, measureReplay } from './replay-long-run.js';
import { formatStepFlatness, measureStepFlatness } from './step-flatness.js';
import { formatTracePipeline, measureTracePipeline } from './trace-pipeline.js';
import { formatViewer, measureViewer } from './viewer.js';
import { formatWorkflowSteps, measureWorkflowSteps } from './workflow-steps.js';
import { formatBridgeOverhead, type BridgeOverheadResult } from './bridge-overhead.js';
import { formatLanggraphOverhead, type LanggraphOverheadResult } from './bridge-langgraph.js';
import {
  formatOpenaiAgentsOverhead,
  type OpenaiAgentsOverheadResult,
} from './bridge-openai-agents.js';
import { formatEvalOverhead, measureEvalOverhead } from './eval-overhead.js';
import { formatRegress, measureRegress } from './regress.js';
import {
  conversationSection,
  formatConversationTurns,
  type ConversationTurnsResult,
} from './conversation-turns.js';
import {
  formatOnlineScoring,
  onlineScoringTarget,
  type OnlineScoringResult,
} from './online-scoring.js';
import { formatLibrary, measureLibrary } from './library.js';
import { formatBigTrace, measureBigTrace } from './big-trace.js';
import { formatWireLevel, formatWireMemory, measureWireLevel, wireShare } from './wire-level.js';
import { cellCaps, formatMemory } from './cells.js';

const quick = process.argv.includes('--quick');
const settings = quick
  ? {
      // N = 100 alone: a loop cell is a process of its own, and N = 10's twelve took 20 s.
      sizes: [100],
      wireSizes: [100],
      budgetMs: 400,
      wireBudgetMs: 300,
      copies: 10,
      largeFileMb: 100,
      manyRunsMb: 100,
      rounds: 3,
    }
  : {
      sizes: [10, 100, 1000],
      wireSizes: [10, 100, 1000],
      budgetMs: 1000,
      wireBudgetMs: 600,
      copies: 25,
      largeFileMb: 1024,
      manyRunsMb: 1100,
      rounds: 5,
    };
const started = performance.now();
let sectionStarted = started;
/** How long the section just printed took, and the whole run so far. */
function sectionTime(): void {
  const now = performance.now();
  console.log(
    `(${((now - sectionStarted) / 1000).toFixed(0)} s; ${((now - started) / 1000).toFixed(0)} s so far)`,
  );
  sectionStarted = now;
}

/** A bridge cell, run compiled in a process of its own (pipeline/cell-worker.ts). */
async function compiledCell<Result>(name: string, size: number, rounds: number): Promise<Result> {
  const worker = await compiledWorker('bench/pipeline/cell-worker.ts');
  return runWorker<Result>(worker, [name, String(size), String(rounds)]);
}

const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
console.log(`agent-trace benchmarks — ${machine}${quick ? ' (quick)' : ''}\n`);

console.log(
  'Loop overhead: a scripted model calls `add` N−1 times, then answers; each framework on its own test model, each cell a fresh process (median µs per step)',
);
const loop = await measureLoopVsPeers(settings.sizes, settings.budgetMs, sample =>
  process.stderr.write(
    `  ${sample.name}, N = ${sample.steps}: ${sample.microsecondsPerStep.toFixed(1)} µs\n`,
  ),
);
console.log(formatLoopVsPeers(loop));
console.log('\nEach framework in each telemetry mode (the same runs):');
console.log(formatModes(loop));
const memoryAt = settings.sizes.at(-1)!;
console.log(
  `\nMemory and garbage collection at N = ${memoryAt} (held: the heap a finished run leaves, its result kept, after a full collection)`,
);
console.log(formatMemory(loop, memoryAt));
sectionTime();

console.log(
  '\nOn the wire: each framework on its own OpenAI provider against one Chat Completions server on 127.0.0.1 (the same scripted answers), each cell a fresh process (median µs per step)',
);
const wire = await measureWireLevel(
  settings.wireSizes,
  { budgetMs: settings.wireBudgetMs, quick },
  sample =>
    process.stderr.write(
      `  ${sample.name}, ${sample.runtime}, ${sample.mode}, N = ${sample.steps}: ${sample.microsecondsPerStep.toFixed(1)} µs\n`,
    ),
);
console.log(formatWireLevel(wire));
const wireMemoryAt = settings.wireSizes.at(-1)!;
console.log(`\nMemory and garbage collection on the wire at N = ${wireMemoryAt}`);
console.log(formatWireMemory(wire, wireMemoryAt));
sectionTime();

console.log('\nStep time inside one 1,000-step run, no sink (median µs between model calls)');
const flatness = await measureStepFlatness();
console.log(formatStepFlatness(flatness));
sectionTime();

console.log('\nTrace pipeline (median of interleaved rounds)');
const pipeline = await measureTracePipeline(settings.copies, settings.largeFileMb, settings.rounds);
console.log(formatTracePipeline(pipeline));
sectionTime();

console.log('\nMany small runs');
const manyRuns = await measureManyRuns(settings.manyRunsMb);
console.log(formatManyRuns(manyRuns));
sectionTime();

console.log('\nReplay');
const replay = await measureReplay(10_000);
console.log(formatReplay(replay));
console.log(
  '\nConversations: a loop of run with history, conversation(), and its rerun, traced to JSONL',
);
const conversationWorker = await compiledWorker('bench/pipeline/conversation-worker.ts');
const conversations = await conversationSection(quick ? [50, 100] : [50, 100, 200], 5, turns =>
  runWorker<ConversationTurnsResult>(
    conversationWorker,
    [String(turns), '5'],
    cellCaps.seconds * 1000,
    cellCaps.memoryMb,
  ),
);
console.log(formatConversationTurns(conversations.results));
console.log(
  '\nOnline scoring: 1,000 runs traced to JSONL, without and with onlineScoring (3 judge-free scorers, every run), the model answering at once and in 2 ms',
);
const onlineWorker = await compiledWorker('bench/pipeline/online-scoring-worker.ts');
const online: OnlineScoringResult[] = [];
for (const latency of [0, 2])
  online.push(
    await runWorker<OnlineScoringResult>(
      onlineWorker,
      ['1000', quick ? '3' : '5', String(latency)],
      cellCaps.seconds * 1000,
      cellCaps.memoryMb,
    ),
  );
for (const cell of online) console.log(formatOnlineScoring(cell));
console.log('');
const mcpCall = await runWorker<McpCallResult>(
  await compiledWorker('bench/pipeline/mcp-worker.ts'),
  // Three times the rounds: a call is tens of µs and collections land unevenly on the two sides.
  [
    String(quick ? 100 : 300),
    String(settings.rounds * 3),
    await compiledWorker('bench/pipeline/mcp-stdio-server.ts'),
  ],
);
console.log(formatMcpCall(mcpCall));
sectionTime();

console.log(
  '\nWorkflow steps: the `add` tool called N times by plain code and by a workflow, each way in processes of its own (median µs a step)',
);
// Each way in processes of its own, taking turns (see measureWorkflowWay).
const workflowSize = quick ? 100 : 1000;
const workflowWorker = await compiledWorker('bench/pipeline/workflow-worker.ts');
const workflowSteps = await measureWorkflowSteps(workflowSize, quick ? 3 : 5, way =>
  runWorker<number>(workflowWorker, [String(workflowSize), '25', way]),
);
console.log(formatWorkflowSteps(workflowSteps));
sectionTime();

console.log(
  '\nThe eval runner over running the agent: the same cases, two scorers (median of interleaved rounds)',
);
const evalOverhead = await measureEvalOverhead(quick ? 50 : 200, settings.rounds);
console.log(formatEvalOverhead(evalOverhead));
sectionTime();

const regressRuns = quick ? 200 : 1000;
console.log(
  `\nRegress: ${regressRuns} recorded runs of 20 steps against unchanged code, and a plain rerunTrace loop over the same files (median of interleaved rounds)`,
);
const regressCell = await measureRegress(regressRuns, 20, 3);
console.log(formatRegress(regressCell));
sectionTime();

console.log(
  `\nRecording an AI SDK agent: generateText over ${quick ? 20 : 100} steps, telemetry off and through agentTraceTelemetry (median µs a step)`,
);
// Bridges: 25 interleaved rounds. With 5, the AI SDK's cells moved by half their value from run to
// run (its own hooks measured 1.04× and 1.54× its telemetry off). --quick takes 10 of its 20-step
// runs: with 3, in a fresh process, the first runs' compiling made telemetry off the slowest.
const bridgeRounds = quick ? 10 : 25;
const bridgeOverhead = await compiledCell<BridgeOverheadResult>(
  'ai-sdk',
  quick ? 20 : 100,
  bridgeRounds,
);
console.log(formatBridgeOverhead(bridgeOverhead));
sectionTime();

console.log(
  `\nRecording an OpenAI Agents SDK agent: run over ${quick ? 20 : 100} turns, tracing off and through agentTraceProcessor (median µs a step)`,
);
const openaiAgentsOverhead = await compiledCell<OpenaiAgentsOverheadResult>(
  'openai-agents',
  quick ? 20 : 100,
  bridgeRounds,
);
console.log(formatOpenaiAgentsOverhead(openaiAgentsOverhead));
sectionTime();

console.log(
  `\nRecording a LangGraph agent: the prebuilt ReAct agent over ${quick ? 20 : 100} steps, without callbacks and through agentTraceCallbacks (median µs a step)`,
);
const langgraphOverhead = await compiledCell<LanggraphOverheadResult>(
  'langgraph',
  quick ? 20 : 100,
  bridgeRounds,
);
console.log(formatLanggraphOverhead(langgraphOverhead));
sectionTime();

console.log(
  "\nThrough the application's OpenTelemetry (otelSink): a 100-step run in each mode (median µs a step)",
);
const otelModes = await measureOtelModes(100, quick ? 5 : 15);
console.log(formatOtelModes(otelModes));
sectionTime();

console.log('\nThe viewer in Chromium: a 100,000-event trace beside a small one');
const viewer = await measureViewer();
console.log(formatViewer(viewer));
sectionTime();

const libraryFiles = quick ? 1_000 : 10_000;
console.log(
  `\nThe trace library: ${libraryFiles.toLocaleString('en')} trace files indexed, re-indexed after an append, and asked (each cell its own process, capped at 5 min)`,
);
const library = await measureLibrary(libraryFiles, 32, 5 * 60_000);
console.log(formatLibrary(library));
sectionTime();

const bigTraceMb = quick ? 100 : 1024;
console.log(
  `\nA big single trace in the served viewer, in Chromium: ${bigTraceMb} MB served as \`agent-trace view\` serves a trace past its page size (each step capped at 3 min)`,
);
const bigTrace = await measureBigTrace(bigTraceMb, 3 * 60_000);
console.log(formatBigTrace(bigTrace));
sectionTime();

const share = jsonlShareOfFastestPeer(loop);
const jsonl = loop.filter(sample => sample.subject === 'agent-trace-jsonl');
const bare = loop.filter(sample => sample.subject === 'agent-trace');
const flatJsonl = jsonl.at(-1)!.microsecondsPerStep / jsonl[0]!.microsecondsPerStep;
/** The floor of a step's trace (µs): stringifying its events and writing their bytes in batches. */
const rateOf = (name: string) =>
  pipeline.writing.find(entry => entry.name === name)?.eventsPerSecond ?? Number.NaN;
const floorMicroseconds =
  pipeline.eventsPerStep *
  (1e6 / rateOf('JSON.stringify only') + 1e6 / rateOf('writeSync of pre-built lines'));
const jsonlAt100 = jsonl.find(sample => sample.steps === 100)!.microsecondsPerStep;
const bareAt100 = bare.find(sample => sample.steps === 100)!.microsecondsPerStep;
const wireJson = wireShare(wire, 'json');
const wireStream = wireShare(wire, 'stream');
const targets = [
  ...conversations.targets,
  ...online.map(onlineScoringTarget),
  [
    'eval runner ≤ 1.10× running the agent alone, per case',
    evalOverhead.runner / evalOverhead.plain <= 1.1,
    ratio(evalOverhead.runner / evalOverhead.plain),
  ],
  [
    `regress of ${regressRuns} unchanged runs ≤ 1.2× a plain rerun loop, with no model call`,
    regressCell.regressConcurrentMs / regressCell.plainMs <= 1.2 && regressCell.modelCalls === 0,
    ratio(regressCell.regressConcurrentMs / regressCell.plainMs),
  ],
  [
    `loop + JSONL ≥ 10× faster than the fastest peer (${share.peer}) at N = 100`,
    share.share <= 0.1,
    `${(1 / share.share).toFixed(1)}×`,
  ],
  [
    `loop + JSONL step ≤ no-sink step + 2 × the floor (${floorMicroseconds.toFixed(1)} µs: stringify + batched write of ${pipeline.eventsPerStep.toFixed(2)} events) at N = 100`,
    jsonlAt100 <= bareAt100 + 2 * floorMicroseconds,
    `${jsonlAt100.toFixed(1)} µs ≤ ${(bareAt100 + 2 * floorMicroseconds).toFixed(1)} µs`,
  ],
  [
    `loop + JSONL flat: N = ${jsonl.at(-1)!.steps} within 1.2× of N = ${jsonl[0]!.steps}`,
    flatJsonl <= 1.2,
    ratio(flatJsonl),
  ],
  [
    `on the wire at N = 100, one JSON answer a call: agent-trace at least as fast as the fastest peer (${wireJson.peer})`,
    wireJson.times >= 1,
    `the peer takes ${wireJson.times.toFixed(2)}× agent-trace's time a step`,
  ],
  [
    `on the wire at N = 100, streamed: agent-trace at least as fast as the fastest peer (${wireStream.peer})`,
    wireStream.times >= 1,
    `the peer takes ${wireStream.times.toFixed(2)}× agent-trace's time a step`,
  ],
  [
    'JSONL sink ≥ 80% of the stringify-only rate',
    pipeline.sinkShareOfStringify >= 0.8,
    ratio(pipeline.sinkShareOfStringify),
  ],
  [
    'readTrace ≥ 80% of chunk-split + JSON.parse',
    pipeline.readerShareOfPlain >= 0.8,
    ratio(pipeline.readerShareOfPlain),
  ],
  [
    `peak RSS < 150 MB reading a ${(pipeline.largeFile.bytes / 2 ** 30).toFixed(2)} GB trace`,
    pipeline.largeFile.peakRssMb < 150,
    `${pipeline.largeFile.peakRssMb.toFixed(0)} MB`,
  ],
  [
    'an MCP tool call through the loop ≤ 1.3× a direct client.callTool',
    mcpCall.loopMicroseconds / mcpCall.directMicroseconds <= 1.3,
    `${ratio(mcpCall.loopMicroseconds / mcpCall.directMicroseconds)} (without the loop's own step: ${ratio(mcpShareOverDirect(mcpCall))})`,
  ],
  [
    'an MCP tool call through the loop ≤ 1.1× a direct client.callTool, server over stdio',
    mcpCall.stdio !== undefined &&
      mcpCall.stdio.loopMicroseconds / mcpCall.stdio.directMicroseconds <= 1.1,
    mcpCall.stdio === undefined
      ? 'not measured'
      : `${ratio(mcpCall.stdio.loopMicroseconds / mcpCall.stdio.directMicroseconds)} (without the loop's own step: ${ratio(mcpShareOverDirect(mcpCall.stdio))})`,
  ],
  [
    'the viewer scrolls a 100,000-event trace at 60 Hz: p95 frame ≤ 1.5 × 16.7 ms',
    viewer.large.frameP95Ms <= 25,
    `${viewer.large.frameP95Ms.toFixed(1)} ms`,
  ],
  [
    'the viewer paints a 100,000-event trace within 2 s',
    viewer.large.firstPaintMs <= 2000,
    `${viewer.large.firstPaintMs.toFixed(0)} ms`,
  ],
  [
    `a ${(bigTrace.bytes / 2 ** 30).toFixed(2)} GB trace served: first paint under 2 s`,
    bigTrace.firstPaintMs < 2000,
    bigTrace.failed ??
      `${bigTrace.firstPaintMs.toFixed(0)} ms (first rows ${bigTrace.firstRowsMs.toFixed(0)} ms)`,
  ],
  [
    'its server under 300 MB RSS, the tab’s JS heap under 200 MB',
    bigTrace.serverPeakRssMb < 300 && bigTrace.tabHeapMb < 200,
    bigTrace.failed ??
      `${bigTrace.serverPeakRssMb.toFixed(0)} MB, ${bigTrace.tabHeapMb.toFixed(0)} MB`,
  ],
  [
    'scrolling its whole run keeps frames under 50 ms',
    bigTrace.frameMaxMs < 50,
    bigTrace.failed ?? `max ${bigTrace.frameMaxMs.toFixed(1)} ms`,
  ],
  [
    `${library.files.toLocaleString('en')} trace files (${(library.bytes / 2 ** 30).toFixed(2)} GB) index in under a minute`,
    'milliseconds' in library.cells[0]! && library.cells[0].milliseconds < 60_000,
    'milliseconds' in library.cells[0]!
      ? `${(library.cells[0].milliseconds / 1000).toFixed(1)} s`
      : library.cells[0]!.failed,
  ],
  [
    're-index after appending to 10 files reads only what was appended',
    'bytes' in library.appended && library.appended.bytes === library.appendedBytes,
    'bytes' in library.appended
      ? `${library.appended.bytes} of ${library.appendedBytes} bytes`
      : library.appended.failed,
  ],
  ...library.answers.map(
    answer =>
      [
        `query: ${answer.question} under 1 s`,
        answer.milliseconds < 1000,
        `${answer.milliseconds.toFixed(0)} ms`,
      ] as const,
  ),
  ...manyRuns.commands.map(sample => {
    const refuses = sample.command === 'view';
    const what = refuses
      ? `agent-trace view refuses the ${(manyRuns.bytes / 2 ** 30).toFixed(2)} GB trace of many runs (exit 2) under ${manyRunsRssTargetMb} MB RSS`
      : `agent-trace ${sample.command} of the trace of many runs under ${manyRunsRssTargetMb} MB RSS`;
    if ('failed' in sample) return [what, false, sample.failed] as const;
    const met = sample.peakRssMb < manyRunsRssTargetMb && sample.exitCode === (refuses ? 2 : 0);
    return [what, met, `${sample.peakRssMb.toFixed(0)} MB, exit ${sample.exitCode}`] as const;
  }),
  ...pipeline.commands.map(
    sample =>
      [
        `agent-trace ${sample.command} of that trace under 300 MB RSS`,
        sample.peakRssMb < 300 && sample.exitCode === 0,
        `${sample.peakRssMb.toFixed(0)} MB`,
      ] as const,
  ),
] as const;
console.log('\nTargets');
for (const [target, met, value] of targets) console.log(`${met ? '✓' : '✗'} ${target}: ${value}`);
const minutes = (performance.now() - started) / 60_000;
console.log(
  `\nThe whole bench took ${minutes.toFixed(1)} min (aimed for: ≤ ${quick ? 2 : 10} min${quick ? ' with --quick' : ''}).`,
);

mkdirSync('bench/results', { recursive: true });
writeFileSync(
  'bench/results/latest.json',
  `${JSON.stringify(
    {
      machine,
      date: new Date().toISOString(),
      settings,
      loop,
      flatness,
      pipeline,
      manyRuns,
      replay,
      conversations: conversations.results,
      onlineScoring: online,
      mcpCall,
      workflowSteps,
      evalOverhead,
      regress: regressCell,
      library,
      bigTrace,
      wire,
      bridgeOverhead,
      openaiAgentsOverhead,
      langgraphOverhead,
      otelModes,
      viewer,
      targets: targets.map(([target, met, value]) => ({ target, met, value })),
    },
    null,
    2,
  )}\n`,
);
console.log('\nWritten to bench/results/latest.json');
