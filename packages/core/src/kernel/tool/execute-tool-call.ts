import type { z } from 'zod';
import { RunAbortedError } from '../errors/abort-error.js';
import { ToolCallError } from '../errors/tool-call-error.js';
import { ToolRefusal } from '../errors/tool-refusal.js';
import type { ToolCallRequest } from '../protocol/message.js';
import { raceAbort } from '../util/abort.js';
import { jsonText } from '../util/json-collections.js';
import { timerOn, type Clock } from '../util/clock.js';
import type { ToolRegistry } from './tool-registry.js';
import type { AnyTool } from './tool.js';

/**
 * The signal a tool is given when its run cannot be aborted (no signal, no timeout): it never
 * aborts, so a tool may skip what it would do to follow an abort.
 */
export const neverAborted: AbortSignal = new AbortController().signal;

/** How one tool call ended. `content` is what the LLM is told either way. */
export type ToolCallOutcome =
  | {
      readonly ok: true;
      readonly args: unknown;
      /** What the tool's schema made of `args` (defaults filled in, transforms applied). */
      readonly input?: unknown;
      readonly result: unknown;
      /**
       * The result as it was when the tool returned, as JSON has it: what the trace records, so a
       * value the tool keeps and changes later (a live record) is recorded as it was returned.
       * Absent: `result` itself (a string, a number, nothing).
       */
      readonly recorded?: unknown;
      readonly content: string;
    }
  | {
      readonly ok: false;
      readonly args: unknown;
      /** What the tool's schema made of `args`, when they passed it. */
      readonly input?: unknown;
      readonly error: ToolCallError;
      readonly content: string;
    };

/** The LLM's argument text, parsed. */
export type ParsedToolArguments = { ok: true; value: unknown } | { ok: false; message: string };

/** Parses the LLM's argument text as JSON; empty text means no arguments (`{}`). */
export function parseToolArguments(argumentsText: string): ParsedToolArguments {
  if (argumentsText.trim() === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(argumentsText) as unknown };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Runs one tool call the LLM asked for: finds the tool, parses and validates the arguments with
 * the tool's zod schema, executes it under its timeout and the run's abort signal. Every failure
 * but an abort comes back as an outcome the LLM can read; an abort rejects with
 * {@link RunAbortedError}.
 */
export function executeToolCall(options: ExecuteToolCallOptions): Promise<ToolCallOutcome> {
  // Not async itself: the checks answer at once, and the call is one chain of promises (a
  // layer fewer in every tool call). Anything thrown becomes a rejection all the same.
  try {
    const checked = checkedCall(options);
    return 'outcome' in checked ? Promise.resolve(checked.outcome) : runChecked(options, checked);
  } catch (error) {
    return Promise.reject(error);
  }
}

/** What {@link executeToolCall} is given. */
export interface ExecuteToolCallOptions {
  registry: ToolRegistry;
  call: ToolCallRequest;
  /** The call's arguments, already parsed with {@link parseToolArguments}. */
  parsed: ParsedToolArguments;
  agentName: string;
  abortSignal: AbortSignal | undefined;
  clock: Clock;
  /** Runs the tool instead of calling its `execute` directly (run overrides). */
  runTool?: (input: unknown, execute: () => Promise<unknown>) => Promise<unknown>;
  /** The trace context of the call's span, for the tool's own outgoing calls. */
  traceHeaders?: () => Readonly<Record<string, string>>;
  /**
   * Whether the call is traced: its args, input and result are then kept as they were given and
   * returned (copies a tool cannot change later). An untraced run pays nothing for them.
   * @defaultValue true
   */
  recording?: boolean;
}

/** A call that passed its checks: its tool, and its arguments as given and as validated. */
interface CheckedCall {
  readonly tool: AnyTool;
  readonly args: unknown;
  readonly input: unknown;
}

/** Finds the tool and validates the arguments; the outcome at once when either fails. */
function checkedCall(options: ExecuteToolCallOptions): CheckedCall | { outcome: ToolCallOutcome } {
  const { registry, call, parsed } = options;
  const args = parsed.ok ? parsed.value : call.argumentsText;
  const refused = (error: ToolCallError) => ({ outcome: failure(args, error) });
  const tool = registry.get(call.toolName);
  if (tool === undefined) {
    const known = registry.names.length > 0 ? registry.names.join(', ') : '(none)';
    return refused(
      new ToolCallError({
        kind: 'unknown_tool',
        toolName: call.toolName,
        availableTools: registry.names,
        message: `Tool '${call.toolName}' does not exist. Available tools: ${known}. Call one of these instead.`,
      }),
    );
  }
  if (!parsed.ok)
    return refused(
      new ToolCallError({
        kind: 'invalid_arguments',
        toolName: tool.name,
        message: `Invalid arguments for tool '${tool.name}': not valid JSON (${parsed.message}). Call '${tool.name}' again with a JSON object that matches its schema.`,
      }),
    );
  const validated = tool.input.safeParse(parsed.value);
  if (!validated.success)
    return refused(
      new ToolCallError({
        kind: 'invalid_arguments',
        toolName: tool.name,
        cause: validated.error,
        message: `Invalid arguments for tool '${tool.name}': ${describeIssues(validated.error)}. Call '${tool.name}' again with arguments that match its schema.`,
      }),
    );
  return { tool, args, input: validated.data };
}

/** Runs a checked call under its limits: its result and content, or its failure; an abort rejects. */
function runChecked(
  options: ExecuteToolCallOptions,
  { tool, args, input }: CheckedCall,
): Promise<ToolCallOutcome> {
  const { call, agentName, clock, runTool, traceHeaders } = options;
  // What the call was given, as it was before the tool ran: a tool that changes the object it is
  // given is recorded with what it was given, as a rerun that answers from the recording gives it.
  const recording = options.recording !== false;
  const given = recording ? { args: asGiven(args), input: asGiven(input) } : { args, input };
  return runWithLimits<unknown>(
    signal => {
      const context = {
        abortSignal: signal,
        callId: call.callId,
        agentName,
        clock,
        ...(traceHeaders === undefined ? {} : { traceHeaders }),
      };
      // Called straight (a value or a promise, adopted by the caller) unless a run override
      // wraps it, which is given a function that always returns a promise.
      if (runTool === undefined) return tool.execute(input, context) as unknown;
      const execute = async (): Promise<unknown> => (await tool.execute(input, context)) as unknown;
      return runTool(input, execute);
    },
    { abortSignal: options.abortSignal, timeoutMs: tool.timeoutMs, toolName: tool.name, clock },
  ).then(
    (result): ToolCallOutcome => {
      try {
        const content = toContent(tool.name, result);
        const recorded = recording ? asReturned(result, content) : {};
        return { ok: true, ...given, result, ...recorded, content };
      } catch (error) {
        return failure(given.args, toolCallError(tool.name, error), given.input);
      }
    },
    (error: unknown) => {
      if (error instanceof RunAbortedError) throw error;
      return failure(given.args, toolCallError(tool.name, error), given.input);
    },
  );
}

/**
 * What a tool's throw means for the model: a `ToolCallError` as it is, a refusal (`toolError`) as a
 * tool error to read, anything else as a failure (retried).
 */
function toolCallError(toolName: string, error: unknown): ToolCallError {
  if (error instanceof ToolCallError) return error;
  if (ToolRefusal.isRefusal(error))
    return new ToolCallError({
      kind: 'tool_error',
      toolName,
      cause: error,
      message: `Tool '${toolName}' refused the call: ${error.message}`,
    });
  const reason = error instanceof Error ? error.message : String(error);
  return new ToolCallError({
    kind: 'execution_failed',
    toolName,
    cause: error,
    message: `Tool '${toolName}' failed: ${reason}`,
  });
}

function failure(args: unknown, error: ToolCallError, input?: unknown): ToolCallOutcome {
  return input === undefined
    ? { ok: false, args, error, content: error.message }
    : { ok: false, args, input, error, content: error.message };
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .map(issue => {
      const path = issue.path.length > 0 ? issue.path.map(String).join('.') : '(root)';
      return `${path}: ${issue.message}`;
    })
    .join('; ');
}

/** An object as its JSON reads back (a copy the tool cannot change); anything else as it is. */
function asGiven(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  try {
    return JSON.parse(JSON.stringify(value)) as unknown;
  } catch {
    return value;
  }
}

/**
 * `recorded` for a result that is an object: the value its JSON (`content`, made when the tool
 * returned) reads back as, or that text for a value that stands for text (a `Date`).
 */
function asReturned(result: unknown, content: string): { readonly recorded?: unknown } {
  if (typeof result !== 'object' || result === null) return {};
  try {
    return { recorded: JSON.parse(content) as unknown };
  } catch {
    return { recorded: content };
  }
}

/**
 * What the model reads of a result: a string as it is, anything else as JSON. A value that stands
 * for another in JSON (a `Date`, through `toJSON`) is read as that value, so a `Date` reads as the
 * text its trace records, not as that text quoted (and a rerun answering with the recorded text
 * tells the model the same).
 */
function toContent(toolName: string, result: unknown): string {
  if (typeof result === 'string') return result;
  if (result === undefined) return 'null';
  try {
    if (typeof result === 'object' && result !== null && 'toJSON' in result) {
      const { toJSON } = result;
      const stands: unknown = typeof toJSON === 'function' ? toJSON.call(result) : undefined;
      if (typeof stands === 'string') return stands;
    }
    return jsonText(result) as string;
  } catch (error) {
    throw new ToolCallError({
      kind: 'execution_failed',
      toolName,
      cause: error,
      message: `Tool '${toolName}' returned a value that cannot be sent to the LLM: ${error instanceof Error ? error.message : String(error)}. Return a string or a JSON-serialisable value.`,
    });
  }
}

/**
 * Runs a tool's `execute` on a later turn of the event loop, under the run's signal and the tool's
 * timeout. Not async itself when there is no timeout: a layer of promises fewer in every call.
 */
function runWithLimits<T>(
  execute: (signal: AbortSignal) => T | Promise<T>,
  options: {
    abortSignal: AbortSignal | undefined;
    timeoutMs: number | undefined;
    toolName: string;
    clock: Clock;
  },
): Promise<T> {
  const { abortSignal, timeoutMs } = options;
  if (abortSignal?.aborted === true)
    return Promise.reject(new RunAbortedError({ reason: abortSignal.reason }));
  if (timeoutMs === undefined) {
    // No timeout: the run's own signal is all the tool needs, and no timer or controller is made.
    return raceAbort(
      Promise.resolve().then(() => execute(abortSignal ?? neverAborted)),
      abortSignal,
    );
  }
  return runWithTimeout(execute, abortSignal, timeoutMs, options);
}

async function runWithTimeout<T>(
  execute: (signal: AbortSignal) => T | Promise<T>,
  abortSignal: AbortSignal | undefined,
  timeoutMs: number,
  { toolName, clock }: { toolName: string; clock: Clock },
): Promise<T> {
  const controller = new AbortController();
  let clear: (() => void) | undefined;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<never>((_, reject) => {
    onAbort = () => {
      controller.abort(abortSignal?.reason);
      reject(new RunAbortedError({ reason: abortSignal?.reason }));
    };
    abortSignal?.addEventListener('abort', onAbort, { once: true });
    clear = timerOn(
      clock,
      timeoutMs,
      () => {
        const error = new ToolCallError({
          kind: 'timeout',
          toolName,
          message: `Tool '${toolName}' timed out after ${timeoutMs} ms. Try again with a simpler request, or answer without this tool.`,
        });
        controller.abort(error);
        reject(error);
      },
      'tool',
    );
  });
  try {
    return await Promise.race([Promise.resolve().then(() => execute(controller.signal)), stopped]);
  } finally {
    clear?.();
    if (onAbort !== undefined) abortSignal?.removeEventListener('abort', onAbort);
    stopped.catch(() => undefined);
  }
}
