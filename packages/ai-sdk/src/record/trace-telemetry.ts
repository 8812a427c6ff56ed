import type { BridgeRecordingOptions } from '@agent-trace/core/record';
import type { Telemetry } from 'ai';
import { Recorder } from './recorder.js';

/** Options of {@link agentTraceTelemetry}: where runs go and how they are written, and the agent's name. */
export interface AgentTraceTelemetryOptions extends BridgeRecordingOptions {
  /** The agent's name in the trace. @defaultValue the call's `functionId`, else `ai-sdk` */
  readonly agent?: string;
}

/** The AI SDK telemetry integration that records agent-trace traces, and waits for its sinks. */
export interface AgentTraceTelemetry extends Telemetry {
  /** Waits until every sink has stored what the runs gave it. */
  flush(): Promise<void>;
}

/** The operations recorded: text generation, in one piece or streamed. */
const recorded = new Set(['ai.generateText', 'ai.streamText']);

/**
 * Records the runs of an unchanged AI SDK agent as agent-trace traces through the AI SDK's own
 * telemetry integration interface: give it to `telemetry.integrations` of `generateText`,
 * `streamText` or an `Agent`. Each top-level call is a run (`run_start`, `agent_start`, then a
 * model call per step and a tool call per execution, paired, and the seal); a `generateText`
 * called from inside a tool is a sub-agent under that tool's span, in the same run.
 *
 * @example
 * ```ts
 * const telemetry = agentTraceTelemetry({ trace: jsonlSink('traces/forecast.jsonl') });
 * await generateText({ model, tools, prompt, telemetry: { integrations: [telemetry] } });
 * await telemetry.flush();
 * ```
 */
export function agentTraceTelemetry(options: AgentTraceTelemetryOptions): AgentTraceTelemetry {
  const recorder = new Recorder(options);
  return {
    onStart(event) {
      if (!recorded.has(event.operationId)) return;
      const { callId, functionId } = event as { callId: string; functionId?: string };
      recorder.begin(callId, functionId, inputOf(event as { messages?: readonly unknown[] }));
    },
    onStepStart(event) {
      // The step's tool choice (prepareStep's, else the call's): it shapes what the model may answer.
      const { callId, toolChoice } = event as { callId: string; toolChoice?: unknown };
      recorder.operations.get(callId)?.aiSdkStepStarted({ toolChoice });
    },
    onLanguageModelCallStart(event) {
      recorder.operations.get(event.callId)?.aiSdkCallStarted(event);
    },
    onLanguageModelCallEnd(event) {
      recorder.operations.get(event.callId)?.aiSdkCallEnded(event);
    },
    onToolExecutionStart(event) {
      const { toolCallId, toolName, input } = event.toolCall as {
        toolCallId: string;
        toolName: string;
        input: unknown;
      };
      recorder.operations.get(event.callId)?.toolStarted(toolCallId, toolName, input);
    },
    executeTool({ callId, toolCallId, execute }) {
      const operation = recorder.operations.get(callId);
      if (operation === undefined) return execute();
      return recorder.withinTool({ operation, span: operation.toolSpan(toolCallId) }, execute);
    },
    onToolExecutionEnd(event) {
      const outcome =
        event.toolOutput.type === 'tool-error'
          ? { error: event.toolOutput.error }
          : { output: event.toolOutput.output as unknown };
      recorder.operations.get(event.callId)?.toolEnded(event.toolCall.toolCallId, outcome);
    },
    onEnd(event) {
      if (!('finishReason' in event && 'text' in event && 'callId' in event)) return;
      const { callId, finishReason, text } = event as {
        callId: string;
        finishReason: string;
        text: string;
      };
      // Stopped with tool calls still wanted: the step limit (stopWhen) ended the loop.
      recorder.finish(callId, {
        stopReason: finishReason === 'tool-calls' ? 'max_steps' : 'completed',
        output: text,
      });
    },
    onAbort(event) {
      recorder.finish(event.callId, { stopReason: 'aborted', output: '' });
    },
    onError(event) {
      const { callId, error } = event as { callId?: string; error?: unknown };
      // An abort reaches integrations as an error (an AbortError): the run was aborted.
      const aborted = error instanceof Error && error.name === 'AbortError';
      if (callId !== undefined)
        recorder.finish(callId, { stopReason: aborted ? 'aborted' : 'error', output: '', error });
    },
    flush: () => recorder.flush(),
  };
}

/** What a run was asked: its messages' text, the last user message's. */
function inputOf(event: { messages?: readonly unknown[] }): string {
  const users = (event.messages ?? []).filter(
    message => (message as { role?: unknown }).role === 'user',
  ) as { content: unknown }[];
  const last = users.at(-1)?.content;
  if (typeof last === 'string') return last;
  if (Array.isArray(last))
    return last
      .map(part => {
        const { type, text } = part as { type?: unknown; text?: unknown };
        return type === 'text' && typeof text === 'string' ? text : '';
      })
      .join('');
  return '';
}
