import {
  agent,
  handoff,
  run,
  stream,
  type AnyAgent,
  type Chunk,
  type TraceEvent,
} from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import { memorySink, validateTrace } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';

const ofKind = <Name extends TraceEvent['event']>(events: readonly TraceEvent[], name: Name) =>
  events.filter((event): event is Extract<TraceEvent, { event: Name }> => event.event === name);
const transfer = (to: string) => ({ toolCalls: [{ name: `transfer_to_${to}` }] });

describe('handoffs', () => {
  it('passes control down a chain; the last agent answers, its events nested under the handoff', async () => {
    const refunds = agent({ name: 'refunds', model: fakeLLM([{ text: 'Refund issued.' }]) });
    const billing = agent({
      name: 'billing',
      model: fakeLLM([transfer('refunds')]),
      handoffs: [refunds],
    });
    const triageModel = fakeLLM([transfer('billing')]);
    const triage = agent({ name: 'triage', model: triageModel, handoffs: [billing] });
    const sink = memorySink();
    const result = await run(triage, 'I was charged twice', { trace: sink });

    expect(result).toMatchObject({
      stopReason: 'completed',
      output: 'Refund issued.',
      agent: 'refunds',
    });
    expect(triageModel.calls[0]!.toolNames).toEqual(['transfer_to_billing']);
    const starts = ofKind(sink.events, 'handoff_start');
    expect(
      starts.map(event => [event.from, event.to, event.depth, event.mode, event.path]),
    ).toEqual([
      ['triage', 'billing', 1, 'pass_control', ['triage', 'billing']],
      ['billing', 'refunds', 2, 'pass_control', ['triage', 'billing', 'refunds']],
    ]);
    const billingStart = ofKind(sink.events, 'agent_start').find(
      event => event.agent === 'billing',
    );
    expect(billingStart?.parent_span_id).toBe(starts[0]!.span_id);
    expect(billingStart?.path).toEqual(['triage', 'billing']);
    expect(ofKind(sink.events, 'handoff_end').map(event => event.error)).toEqual([
      undefined,
      undefined,
    ]);
    expect(ofKind(sink.events, 'agent_end').find(event => event.agent === 'triage')).toMatchObject({
      handed_off_to: 'refunds',
      stop_reason: 'completed',
    });
    expect(validateTrace(sink.events).problems).toEqual([]);
  });

  it('gives the target the conversation, with the handoff call and its result', async () => {
    const billingModel = fakeLLM([{ text: 'ok' }]);
    const billing = agent({
      name: 'billing',
      instructions: 'You do billing.',
      model: billingModel,
    });
    await run(
      agent({ name: 'triage', model: fakeLLM([transfer('billing')]), handoffs: [billing] }),
      'refund me',
    );
    const seen = billingModel.calls[0]!;
    expect(seen.instructions).toBe('You do billing.');
    expect(seen.messages.map(message => message.role)).toEqual(['user', 'assistant', 'tool']);
    expect(seen.messages.at(-1)).toMatchObject({
      content: "Transferred to 'billing'.",
      isError: false,
    });
  });

  it('applies the input filter and the description of handoff()', async () => {
    const billingModel = fakeLLM([{ text: 'ok' }]);
    const billing = agent({ name: 'billing', model: billingModel });
    const triageModel = fakeLLM([transfer('billing')]);
    await run(
      agent({
        name: 'triage',
        model: triageModel,
        handoffs: [
          handoff(billing, {
            description: 'Charges and refunds',
            inputFilter: messages => messages.filter(message => message.role === 'user'),
          }),
        ],
      }),
      'refund me',
    );
    expect(billingModel.calls[0]!.messages).toEqual([{ role: 'user', content: 'refund me' }]);
    expect(triageModel.calls[0]!.toolNames).toEqual(['transfer_to_billing']);
  });

  it('stops with handoff_depth_exceeded past maxHandoffDepth, recording the refused handoff', async () => {
    const names = ['a', 'b', 'c', 'd', 'e'];
    let next: AnyAgent = agent({ name: 'e', model: fakeLLM([]) });
    for (const name of names.slice(0, -1).reverse()) {
      next = agent({ name, model: fakeLLM([transfer(next.name)]), handoffs: [next] });
    }
    const sink = memorySink();
    const result = await run(next, 'go', { trace: sink });

    expect(result.stopReason).toBe('handoff_depth_exceeded');
    expect(result.limit).toEqual({ name: 'maxHandoffDepth', value: 3 });
    expect(result.detail).toBe(
      "handing off from 'd' to 'e' would be handoff number 4 in a row (a → b → c → d → e); 3 allowed",
    );
    expect(ofKind(sink.events, 'agent_end').find(event => event.agent === 'a')?.detail).toBe(
      `handed off to 'd': ${result.detail}`,
    );
    const last = ofKind(sink.events, 'handoff_end').find(event => event.to === 'e');
    expect(last).toMatchObject({ depth: 4, error: { type: 'handoff_depth_exceeded' } });
    expect(ofKind(sink.events, 'agent_start').map(event => event.agent)).toEqual([
      'a',
      'b',
      'c',
      'd',
    ]);
    expect(sink.events.at(-1)).toMatchObject({ stop_reason: 'handoff_depth_exceeded' });
    expect(validateTrace(sink.events).problems).toEqual([]);
  });

  it('stops with handoff_cycle on A → B → A', async () => {
    const b: AnyAgent = agent({ name: 'b', model: fakeLLM([transfer('a')]), handoffs: [() => a] });
    const a: AnyAgent = agent({ name: 'a', model: fakeLLM([transfer('b')]), handoffs: [b] });
    const sink = memorySink();
    const result = await run(a, 'ping', { trace: sink });
    expect(result.stopReason).toBe('handoff_cycle');
    expect(result.detail).toBe("'b' tried to hand off to 'a', which is already on the path a → b");
    expect(ofKind(sink.events, 'handoff_end').at(0)).toMatchObject({
      from: 'b',
      to: 'a',
      error: { type: 'handoff_cycle' },
    });
    expect(validateTrace(sink.events).problems).toEqual([]);
  });

  it('can refuse a cyclic handoff and let the agent answer itself', async () => {
    const bModel = fakeLLM([transfer('a'), { text: 'I will handle it.' }]);
    const b: AnyAgent = agent({
      name: 'b',
      model: bModel,
      handoffs: [() => a],
      onHandoffCycle: 'refuse',
    });
    const a: AnyAgent = agent({ name: 'a', model: fakeLLM([transfer('b')]), handoffs: [b] });
    const result = await run(a, 'ping');
    expect(result).toMatchObject({
      stopReason: 'completed',
      output: 'I will handle it.',
      agent: 'b',
    });
    expect(bModel.calls[1]!.messages.at(-1)).toMatchObject({
      isError: true,
      content:
        "Handoff to 'a' refused: 'a' is already handling this conversation (a → b). Answer the user yourself.",
    });
  });

  it('closes every handoff when the target fails', async () => {
    const broken = agent({
      name: 'broken',
      model: fakeLLM([{ error: { status: 400, message: 'bad request' } }]),
    });
    const sink = memorySink();
    const result = await run(
      agent({ name: 'a', model: fakeLLM([transfer('broken')]), handoffs: [broken] }),
      'go',
      {
        trace: sink,
      },
    );
    expect(result).toMatchObject({ stopReason: 'error', agent: 'broken' });
    expect(ofKind(sink.events, 'handoff_end')[0]).toMatchObject({ error: { type: 'bad_request' } });
    expect(validateTrace(sink.events).problems).toEqual([]);
  });

  it('takes only the first of several handoffs in one turn', async () => {
    const xModel = fakeLLM([{ text: 'x here' }]);
    const x = agent({ name: 'x', model: xModel });
    const y = agent({ name: 'y', model: fakeLLM([]) });
    const result = await run(
      agent({
        name: 'a',
        model: fakeLLM([{ toolCalls: [{ name: 'transfer_to_x' }, { name: 'transfer_to_y' }] }]),
        handoffs: [x, y],
      }),
      'go',
    );
    expect(result.agent).toBe('x');
    expect(
      xModel.calls[0]!.messages.filter(message => message.role === 'tool').map(
        message => message.role === 'tool' && message.content,
      ),
    ).toEqual([
      "Ignored: only one handoff per turn, and 'transfer_to_x' was taken.",
      "Transferred to 'x'.",
    ]);
  });

  it('streams a handoff chunk, and the target’s chunks carry its name', async () => {
    const billing = agent({ name: 'billing', model: fakeLLM([{ text: 'Refund issued.' }]) });
    const chunks: Chunk[] = [];
    for await (const chunk of stream(
      agent({ name: 'triage', model: fakeLLM([transfer('billing')]), handoffs: [billing] }),
      'go',
      { session: 'chat-7' },
    )) {
      chunks.push(chunk);
    }
    expect(chunks.find(chunk => chunk.type === 'handoff')).toMatchObject({
      agent: 'triage',
      data: { from: 'triage', to: 'billing', depth: 1, mode: 'pass_control' },
    });
    expect(
      new Set(chunks.filter(chunk => chunk.type === 'delta').map(chunk => chunk.agent)),
    ).toEqual(new Set(['billing']));
    expect(new Set(chunks.map(chunk => chunk.session))).toEqual(new Set(['chat-7']));
  });

  it('refuses a tool and a handoff with the same name', async () => {
    const billing = agent({ name: 'billing', model: fakeLLM([]) });
    const { fakeTool } = await import('@agent-trace/testing');
    const message =
      "Agent 'a' offers 'transfer_to_billing' twice (a tool or another handoff has that name). Rename the tool, or pass handoff(agent, { toolName }).";
    expect(() =>
      agent({
        name: 'a',
        model: fakeLLM([]),
        tools: [fakeTool('transfer_to_billing')],
        handoffs: [billing],
      }),
    ).toThrow(message);
    const lazy = agent({
      name: 'a',
      model: fakeLLM([]),
      tools: [fakeTool('transfer_to_billing')],
      handoffs: [() => billing],
    });
    await expect(run(lazy, 'go')).rejects.toThrow(message);
  });
});

describe('sessions', () => {
  it('keeps concurrent runs apart: own run id, session and contiguous seq, no shared state', async () => {
    const sink = memorySink();
    const build = (text: string) => {
      const billing = agent({ name: 'billing', model: fakeLLM([{ text }]) });
      return agent({ name: 'triage', model: fakeLLM([transfer('billing')]), handoffs: [billing] });
    };
    const [first, second] = await Promise.all([
      run(build('one'), 'go', { trace: sink, session: 's1' }),
      run(build('two'), 'go', { trace: sink, session: 's2' }),
    ]);
    expect([first.output, second.output]).toEqual(['one', 'two']);
    for (const [session, result] of [
      ['s1', first],
      ['s2', second],
    ] as const) {
      const events = sink.events.filter(event => event.run === result.runId);
      expect(new Set(events.map(event => event.session))).toEqual(new Set([session]));
      expect(events.map(event => event.seq)).toEqual(events.map((_, index) => index));
    }
    expect(validateTrace(sink.events).problems).toEqual([]);
  });
});
