import { run } from '@agent-trace/core';
import { planAndRun } from '@agent-trace/core/workflow';
import { fakeLLM } from '@agent-trace/testing';
import { jsonlSink, memorySink, validateTraceFile } from '@agent-trace/trace';
import { otlpSink } from '@agent-trace/trace/otlp';
import { join } from 'node:path';
import type { OtlpReceiver } from '@agent-trace/testing/otlp';
import { describe, expect, it } from 'vitest';
import { plannerAgent, request } from '../../examples/data-pipeline/planner.js';
import { pipelineTools } from '../../examples/data-pipeline/tools.js';
import { reviewDesk } from '../../examples/document-review/agents.js';
import { questions } from '../../examples/react-runtime/questions.js';
import { reactRuntime } from '../../examples/react-runtime/runtime.js';
import { cli } from '../support/cli.js';
import { byName, directory, input, receiver } from './otlp-fixtures.js';

describe('otlpSink', () => {
  it('exports the demo as GenAI spans: names, kinds, attributes, parents, errors', async () => {
    const collector = await receiver();
    const memory = memorySink();
    await run(reviewDesk(), input, {
      trace: [memory, otlpSink({ endpoint: collector.url, serviceName: 'review-desk' })],
      session: 'demo',
    });
    const starts = memory.events.filter(event => event.event.endsWith('_start'));
    await collector.waitForSpans(starts.length);
    const spans = collector.spans;
    expect(spans).toHaveLength(starts.length);
    expect(new Set(spans.map(span => span.traceId))).toEqual(new Set([memory.events[0]!.trace_id]));

    const root = byName(spans, 'invoke_workflow coordinator')!;
    expect(root).toMatchObject({
      kind: 'INTERNAL',
      parentSpanId: '',
      attributes: {
        'gen_ai.operation.name': 'invoke_workflow',
        'agent_trace.stop_reason': 'completed',
      },
    });
    expect(root.resource['service.name']).toBe('review-desk');
    const coordinator = byName(spans, 'invoke_agent coordinator')!;
    expect(coordinator).toMatchObject({
      parentSpanId: root.spanId,
      attributes: {
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.agent.name': 'coordinator',
        'gen_ai.provider.name': 'fake',
        'gen_ai.request.model': 'gpt-4o',
        'gen_ai.conversation.id': 'demo',
      },
    });
    const chat = spans.find(
      span => span.name === 'chat gpt-4o' && span.parentSpanId === coordinator.spanId,
    )!;
    expect(chat).toMatchObject({
      kind: 'CLIENT',
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.usage.input_tokens': 210,
        'gen_ai.usage.output_tokens': 44,
        'gen_ai.response.finish_reasons': ['tool_call'],
      },
    });
    expect(chat.attributes['gen_ai.input.messages']).toBeUndefined(); // content is opt-in

    const handoff = byName(spans, 'execute_tool transfer_to_evaluator evaluator')!;
    expect(handoff).toMatchObject({
      kind: 'INTERNAL',
      parentSpanId: coordinator.spanId,
      attributes: {
        'agent_trace.transfer.mode': 'pass_control',
        'agent_trace.transfer.target.name': 'evaluator',
        'gen_ai.agent.name': 'coordinator',
      },
    });
    expect(byName(spans, 'invoke_agent evaluator')!.parentSpanId).toBe(handoff.spanId);

    const askStyle = byName(spans, 'execute_tool ask_style')!;
    const delegation = byName(spans, 'execute_tool ask_style style')!;
    expect(delegation).toMatchObject({
      parentSpanId: askStyle.spanId,
      attributes: { 'agent_trace.transfer.mode': 'return_to_caller' },
    });
    expect(byName(spans, 'invoke_agent style')!.parentSpanId).toBe(delegation.spanId);

    const tool = byName(spans, 'execute_tool check_grammar')!;
    expect(tool.attributes).toMatchObject({
      'gen_ai.tool.name': 'check_grammar',
      'gen_ai.tool.type': 'function',
      'gen_ai.tool.call.id': 'call_1_1',
    });
    const failed = spans.filter(
      span => span.name === 'execute_tool count_words' && span.status.code === 'ERROR',
    );
    expect(failed).toHaveLength(1);
    expect(failed[0]!.attributes['error.type']).toBe('invalid_arguments');
    expect(coordinator.events.map(event => event.name)).toContain('agent_trace.guardrail');
    expect(memory.events.at(-1)).toMatchObject({
      event: 'run_end',
      export: { dropped_spans: 0, failed_spans: 0 },
    });
  });

  it('exports a ReAct run: malformed answers as events, thoughts as content', async () => {
    const collector = await receiver();
    const [, traceparent] = questions;
    await run(reactRuntime({ model: fakeLLM(traceparent!.script) }), traceparent!.text, {
      trace: otlpSink({ endpoint: collector.url, captureContent: true }),
    });
    await collector.waitForSpans(6);
    const agentSpan = byName(collector.spans, 'invoke_agent react_runtime')!;
    expect(agentSpan.attributes['agent_trace.tool_calling']).toBe('react');
    expect(agentSpan.events).toMatchObject([
      {
        name: 'agent_trace.malformed_answer',
        attributes: {
          'agent_trace.malformed_answer.problem': 'invalid_json',
          'agent_trace.malformed_answer.count': 1,
          'agent_trace.step': 1,
        },
      },
    ]);
    expect(byName(collector.spans, 'execute_tool search')!.attributes).toMatchObject({
      'gen_ai.tool.call.id': 'react_2',
      'agent_trace.react.thought': 'The input must be JSON.',
    });
  });

  it('exports a planned workflow: invoke_workflow per plan, a span per step, plans as events', async () => {
    const collector = await receiver();
    const memory = memorySink();
    await planAndRun(plannerAgent(), request, {
      tools: pipelineTools,
      trace: [memory, otlpSink({ endpoint: collector.url, captureContent: true })],
    });
    const starts = memory.events.filter(event => event.event.endsWith('_start'));
    await collector.waitForSpans(starts.length);
    const spans = collector.spans;
    const failed = byName(spans, 'invoke_workflow regional-report')!;
    expect(failed.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_workflow',
      'gen_ai.workflow.name': 'regional-report',
      'agent_trace.workflow.status': 'failed',
      'agent_trace.plan.revision': 1,
    });
    const analyse = spans.find(
      span =>
        span.name === 'workflow_step analyse' &&
        span.attributes['agent_trace.workflow.step.status'] === 'completed',
    )!;
    expect(analyse).toMatchObject({ kind: 'INTERNAL' });
    expect(analyse.attributes['agent_trace.workflow.step.items']).toBe(4);
    const analyses = spans.filter(
      span => span.name === 'execute_tool region_analyzer' && span.parentSpanId === analyse.spanId,
    );
    expect(analyses).toHaveLength(4);
    const root = spans.find(span => span.parentSpanId === undefined || span.parentSpanId === '')!;
    expect(
      root.events.map(event => [event.name, event.attributes['agent_trace.plan.verdict']]),
    ).toEqual([
      ['agent_trace.plan', 'accepted'],
      ['agent_trace.plan', 'accepted'],
    ]);
    expect(String(root.events[0]?.attributes['agent_trace.plan'])).toContain('sales-2026.csv');
  });

  it('records message content, capped, only when asked', async () => {
    const collector = await receiver();
    await run(reviewDesk(), input, {
      trace: otlpSink({ endpoint: collector.url, captureContent: true, maxAttributeLength: 60 }),
    });
    await collector.waitForSpans(37);
    const chat = collector.spans.find(span => span.name === 'chat gpt-4o')!;
    const messages = chat.attributes['gen_ai.input.messages'] as string;
    expect(
      messages.startsWith('[{"role":"user","parts":[{"type":"text","content":"Review th'),
    ).toBe(true);
    expect(messages).toMatch(/…\[truncated \d+ chars\]$/);
    const tool = collector.spans.find(
      span => span.name === 'execute_tool count_words' && span.status.code === 'OK',
    )!;
    expect(tool.attributes['gen_ai.tool.call.result']).toBe('19');
  });

  it('does not wait for the collector by default: spans still in flight are reported pending', async () => {
    const collector = await receiver();
    collector.setBehaviour({ kind: 'slow', delayMs: 5000 });
    const memory = memorySink();
    const sink = otlpSink({ endpoint: collector.url, batchDelayMs: 10 });
    const started = Date.now();
    await run(reviewDesk(), input, { trace: [memory, sink] });
    expect(Date.now() - started).toBeLessThan(1000); // the collector holds every request 5 s
    expect(memory.events.at(-1)).toMatchObject({
      event: 'run_end',
      export: { failed_spans: 0, dropped_spans: 0, pending_spans: 36 },
    });
  });

  for (const [what, prepare] of [
    ['down', async (collector: OtlpReceiver) => collector.close()],
    [
      'refusing (UNAVAILABLE)',
      (collector: OtlpReceiver) => collector.setBehaviour({ kind: 'unavailable' }),
    ],
    ['slow', (collector: OtlpReceiver) => collector.setBehaviour({ kind: 'slow', delayMs: 3000 })],
  ] as const) {
    it(`waits at most flushTimeoutMs for confirmation, and loses no JSONL, when the collector is ${what}`, async () => {
      const collector = await receiver();
      await prepare(collector);
      const path = join(directory, `down-${what.split(' ')[0]}.jsonl`);
      const baseline = Date.now();
      await run(reviewDesk(), input, { trace: jsonlSink(path) });
      const withoutOtlp = Date.now() - baseline;
      const file = jsonlSink(`${path}.with-otlp`);
      const memory = memorySink();
      const started = Date.now();
      await run(reviewDesk(), input, {
        trace: [
          file,
          memory,
          otlpSink({
            endpoint: collector.url,
            awaitAtRunEnd: true,
            flushTimeoutMs: 300,
            exportTimeoutMs: 10_000,
            batchDelayMs: 10,
          }),
        ],
      });
      const withOtlp = Date.now() - started;
      await file.close();
      // The waits at the end, before and after the seal, share one flushTimeoutMs (300 ms here);
      // the slow collector holds a request 3 s, and one request may take 10 s.
      expect(withOtlp - withoutOtlp).toBeLessThan(600);
      expect((await validateTraceFile(`${path}.with-otlp`)).problems).toEqual([]);
      const runEnd = memory.events.at(-1) as {
        export?: { failed_spans: number; dropped_spans: number; pending_spans?: number };
      };
      const { failed_spans = 0, dropped_spans = 0, pending_spans = 0 } = runEnd.export ?? {};
      // Every span but the run's own is accounted for: failed, or unconfirmed when time ran out.
      expect(failed_spans + dropped_spans + pending_spans).toBe(36);
      const { stdout } = await cli(['stats', `${path}.with-otlp`]);
      expect(stdout).toMatch(/export: \d+ spans failed, \d+ dropped, \d+ unconfirmed/);
    });
  }
});
