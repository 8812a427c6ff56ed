// docs/guide/testing.md, "Testing your OpenTelemetry export"
import { run } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import { startOtlpReceiver } from '@agent-trace/testing/otlp';
import { memorySink } from '@agent-trace/trace';
import { otlpSink } from '@agent-trace/trace/otlp';
import { expect, it } from 'vitest';
import { supportDesk } from './support-agent.js';

it('exports the handoff to billing as a transfer span over the billing agent', async () => {
  const collector = await startOtlpReceiver(); // a real OTLP/gRPC server on 127.0.0.1
  const desk = supportDesk({
    support: fakeLLM([{ toolCalls: [{ name: 'transfer_to_billing' }] }]),
    billing: fakeLLM([{ text: 'Refunded 42 EUR.' }]),
  });
  const sink = otlpSink({ endpoint: collector.url });
  await run(desk, 'Refund order 7', { trace: sink });
  await sink.shutdown(); // spans go out in the background: wait for them

  const transfer = collector.spans.find(
    span => span.attributes['agent_trace.transfer.target.name'],
  );
  const billing = collector.spans.find(span => span.name === 'invoke_agent billing');
  expect(transfer?.name).toBe('execute_tool transfer_to_billing billing');
  expect(billing?.parentSpanId).toBe(transfer?.spanId);
  await collector.close();
});

it('counts the spans a collector refused, in run_end', async () => {
  const collector = await startOtlpReceiver({ behaviour: { kind: 'unavailable' } });
  const desk = supportDesk({
    support: fakeLLM([{ text: 'Order 7 was delivered.' }]),
    billing: fakeLLM([]),
  });
  const trace = memorySink();
  const result = await run(desk, 'Where is order 7?', {
    // awaitAtRunEnd: the run waits (at most flushTimeoutMs) for the collector's answer
    trace: [trace, otlpSink({ endpoint: collector.url, awaitAtRunEnd: true, flushTimeoutMs: 500 })],
  });
  expect(result.stopReason).toBe('completed'); // the spans failed, the run did not
  expect(trace.events.at(-1)).toMatchObject({
    event: 'run_end',
    // the agent's and the model call's spans; the run's own span is made from run_end itself
    export: { failed_spans: 2, dropped_spans: 0 },
  });
  await collector.close();
});
