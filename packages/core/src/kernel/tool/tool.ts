import { z } from 'zod';
import { ConfigurationError } from '../errors/configuration-error.js';
import type { ToolDefinition } from '../model/language-model.js';
import type { Clock } from '../util/clock.js';
import { approvalCheck, type ApprovalCheck, type NeedsApproval } from '../protocol/approval.js';

/** What a tool's `execute` receives besides its arguments. */
export interface ToolContext {
  /** Fires when the run is aborted or the tool's timeout passes; long tools should stop then. */
  readonly abortSignal: AbortSignal;
  /** The id of the tool call being answered. */
  readonly callId: string;
  /** The agent that called the tool. */
  readonly agentName: string;
  /** The run's clock: wait on it (`clock.sleep`) so tests with a virtual clock stay instant. */
  readonly clock: Clock;
  /**
   * The trace context of the call's span as headers (W3C `traceparent`, and `tracestate` /
   * `baggage` when the application's OpenTelemetry has them), for a tool that calls another
   * service itself: send them along and that service's spans join this trace.
   */
  readonly traceHeaders?: () => Readonly<Record<string, string>>;
}

/** A tool the LLM can call. Made with {@link tool}. */
export interface Tool<Input = unknown, Output = unknown> {
  readonly name: string;
  readonly description: string;
  /** The zod schema the LLM's arguments are parsed and validated with. */
  readonly input: z.ZodType<Input>;
  /** Runs the tool. A throw becomes a tool error the LLM sees; it never crashes the run. */
  execute(input: Input, context: ToolContext): Output | Promise<Output>;
  /** How long one execution may take before it fails with a timeout. */
  readonly timeoutMs: number | undefined;
  /** The definition sent to the model (name, description, JSON Schema of `input`). */
  readonly definition: ToolDefinition;
  /** Set when a call must be approved by a person before it runs (see `needsApproval`). */
  readonly needsApproval?: ApprovalCheck | undefined;
  /** Where a tool served by another process comes from (an MCP server), for the trace. */
  readonly origin?: { readonly server: string; readonly transport: string };
}

/** A tool of any input and output type, as agents hold them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTool = Tool<any, any>;

/** Options of {@link tool}. */
export interface ToolOptions<Input, Output> {
  /** Letters, digits, `_` and `-`, at most 64 characters (what every provider accepts). */
  name: string;
  description: string;
  input: z.ZodType<Input>;
  execute: (input: Input, context: ToolContext) => Output | Promise<Output>;
  /**
   * How long one execution may take, in milliseconds.
   * @defaultValue no timeout
   */
  timeoutMs?: number;
  /**
   * Calls that must be approved by a person before they run: every call (`true`), or those a
   * function of the (validated) arguments picks. The run then stops with `interrupted`, its
   * result listing the pending calls and holding a `state` to `resume` from with the decisions.
   * @defaultValue false
   */
  needsApproval?: NeedsApproval<Input>;
}

const toolNamePattern = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Defines a tool.
 *
 * @example
 * ```ts
 * const add = tool({
 *   name: 'add',
 *   description: 'Add two numbers',
 *   input: z.object({ a: z.number(), b: z.number() }),
 *   execute: async ({ a, b }) => a + b,
 * });
 * ```
 */
export function tool<Input, Output>(options: ToolOptions<Input, Output>): Tool<Input, Output> {
  const { name, description, input, execute, timeoutMs, needsApproval } = options;
  if (typeof name !== 'string' || !toolNamePattern.test(name)) {
    throw new ConfigurationError({
      option: 'name',
      message: `Invalid tool name ${JSON.stringify(name)}: providers accept only letters, digits, '_' and '-' (1 to 64 characters). Rename the tool, e.g. 'get_weather'.`,
    });
  }
  if (!(input instanceof z.ZodType)) {
    throw new ConfigurationError({
      option: 'input',
      message: `Tool '${name}' has no zod input schema: 'input' must be a zod schema such as z.object({ city: z.string() }).`,
    });
  }
  if (typeof execute !== 'function') {
    throw new ConfigurationError({
      option: 'execute',
      message: `Tool '${name}' has no execute function: pass execute: async (input) => result.`,
    });
  }
  if (timeoutMs !== undefined && !(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
    throw new ConfigurationError({
      option: 'timeoutMs',
      message: `Invalid timeoutMs for tool '${name}': expected a number of milliseconds greater than 0 (actual: ${String(timeoutMs)}).`,
    });
  }
  if (
    needsApproval !== undefined &&
    typeof needsApproval !== 'boolean' &&
    typeof needsApproval !== 'function'
  ) {
    throw new ConfigurationError({
      option: 'needsApproval',
      message: `Invalid needsApproval for tool '${name}': expected true, false or a function (args, context) => boolean.`,
    });
  }
  let definition: ToolDefinition | undefined;
  return {
    name,
    description,
    input,
    execute,
    timeoutMs,
    needsApproval: approvalCheck(needsApproval),
    get definition(): ToolDefinition {
      definition ??= {
        name,
        description,
        inputSchema: z.toJSONSchema(input, { unrepresentable: 'any' }),
      };
      return definition;
    },
  };
}
