/**
 * `pnpm demo`: runs the multi-agent document-review desk on FakeLLM scripts (no API key), writes
 * traces/demo.jsonl, then shows the replay of that trace and validates it.
 * `pnpm demo --live`: the same agents on a real provider (OPENAI_API_KEY or ANTHROPIC_API_KEY).
 * With TRACE_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT set, the run is also exported as
 * OpenTelemetry spans (to Jaeger, say).
 */
import { rmSync } from 'node:fs';
import { run } from '@agent-trace/core';
import { processIo, runCli } from '@agent-trace/cli';
import { jsonlSink } from '@agent-trace/trace';
import { otlpEndpointFromEnvironment, otlpSinkFromEnvironment } from '@agent-trace/trace/otlp';
import { reviewDesk } from './document-review/agents.js';
import { liveModels } from './document-review/live-models.js';
import { draft } from './document-review/draft.js';

const live = process.argv.includes('--live');
const modelFor = live ? liveModels(process.env) : undefined;
if (live && modelFor === undefined) {
  process.stderr.write(
    'pnpm demo --live needs a provider key, and neither OPENAI_API_KEY nor ANTHROPIC_API_KEY is set.\n' +
      'Set one (export OPENAI_API_KEY=sk-...), or run `pnpm demo` without --live to use the FakeLLM scripts.\n',
  );
  process.exit(2);
}
const tracePath = live ? 'traces/demo-live.jsonl' : 'traces/demo.jsonl';
rmSync(tracePath, { force: true });
const sink = jsonlSink(tracePath);
const otlp = otlpSinkFromEnvironment({ serviceName: 'agent-trace-demo' });
const result = await run(reviewDesk(modelFor), `Review this draft: ${draft}`, {
  trace: otlp === undefined ? sink : [sink, otlp],
  session: 'demo',
});
await sink.close();
await otlp?.shutdown();

const io = processIo();
const agents = new Set(result.steps.map(step => step.agent)).size;
io.stdout(
  `Ran ${agents} agents: ${result.stopReason} after ${result.steps.length} model calls and ${result.toolCalls.length} tool calls; '${result.agent}' gave the answer.`,
);
io.stdout(`Trace written to ${tracePath}.`);
if (otlp !== undefined) {
  const { exported, failed, dropped } = otlp.stats;
  io.stdout(
    failed + dropped === 0
      ? `${exported} spans exported over OTLP: look for the service 'agent-trace-demo' in Jaeger.`
      : `OTLP export: ${exported} spans sent, ${failed} failed, ${dropped} dropped — is the collector at ${otlpEndpointFromEnvironment()} running?`,
  );
}
io.stdout('');
io.stdout(`$ agent-trace replay ${tracePath}`);
const replayed = await runCli(['replay', tracePath], io);
io.stdout(`\n$ agent-trace validate ${tracePath}`);
const validated = await runCli(['validate', tracePath], io);
io.stdout(`\nReplay it yourself: npx -y pnpm@10 agent-trace replay ${tracePath}`);
process.exitCode = result.stopReason === 'completed' && replayed === 0 && validated === 0 ? 0 : 1;
