import type { ApprovalDecision, PendingApproval } from '../../protocol/approval.js';
import { ConfigurationError } from '../../errors/configuration-error.js';
import type { HandoffRecord, StepResult, ToolCallRecord } from '../../protocol/records.js';
import type { Usage } from '../../protocol/usage.js';
import type { TraceCounts } from '../../trace/run-tracer.js';
import { canonicalJson } from '../../util/canonical-json.js';
import type { DrawnIds } from '../../util/continued-ids.js';
import type { PausedTurn } from '../turn/agent-outcome.js';

/** The format name and version a run state carries; a state of another version is refused. */
export const RUN_STATE_FORMAT = 'agent-trace/run-state' as const;
export const RUN_STATE_VERSION = 2 as const;

/**
 * A run paused for a person's approval, as plain, versioned JSON: store it anywhere (a file, a
 * database row, a queue message) and `resume` from it, in this process or another one.
 */
export interface RunStateSnapshot {
  readonly format: typeof RUN_STATE_FORMAT;
  readonly version: typeof RUN_STATE_VERSION;
  readonly run: {
    readonly id: string;
    /** This state's own id: a ledger records its use, so it resumes once. */
    readonly stateId: string;
    readonly session: string;
    readonly traceId: string;
    /** The run's input. */
    readonly input: string;
    /** The entry agent: a resumed run must start from the same graph. */
    readonly entryAgent: string;
    /** The seq of the `run_end` that paused the run; a resumed run goes on after it. */
    readonly pausedAtSeq: number;
    /**
     * The run's clock when it paused: a resume goes on from there, even on a clock that starts
     * over (a new process's). Absent in states of earlier releases.
     */
    readonly pausedAtMs?: number;
    /** The span ids the run drew: a resume draws after them. Absent in states of earlier releases. */
    readonly ids?: DrawnIds;
    readonly counts: TraceCounts;
    readonly usage: Usage;
    /** What the model calls cost so far (US dollars), and the calls with no price. */
    readonly cost: {
      readonly usd: number;
      readonly unpricedCalls: number;
      readonly unpricedModels: readonly string[];
    };
    readonly steps: readonly StepResult[];
    readonly toolCalls: readonly ToolCallRecord[];
    readonly handoffs: readonly HandoffRecord[];
  };
  /** The agent's turn that paused: its conversation, counters, limits used and the pending calls. */
  readonly turn: PausedTurn;
  /** SHA-256 (HMAC-SHA-256 with a secret) of everything else, hex: a changed state is refused. */
  readonly integrity: string;
}

/** What a paused run's state is made from. */
export type RunStateBody = Omit<RunStateSnapshot, 'integrity'>;

const encoder = new TextEncoder();

const hex = (bytes: ArrayBuffer) =>
  [...new Uint8Array(bytes)].map(byte => byte.toString(16).padStart(2, '0')).join('');

/** The integrity of a state's body: SHA-256 of its canonical JSON, or HMAC-SHA-256 with `secret`. */
async function integrityOf(body: object, secret: string | undefined): Promise<string> {
  const data = encoder.encode(canonicalJson(body));
  if (secret === undefined) return hex(await crypto.subtle.digest('SHA-256', data));
  const key = await crypto.subtle.importKey(
    'raw',
    encoder.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  return hex(await crypto.subtle.sign('HMAC', key, data));
}

/** Seals a paused run's state (an agent run's or a workflow's) with its integrity. */
export async function sealState<Body extends object>(
  body: Body,
  secret: string | undefined,
): Promise<Body & { readonly integrity: string }> {
  // Through JSON, so the state holds only what survives storage (and is hashed as stored).
  const plain = JSON.parse(JSON.stringify(body)) as Body;
  return { ...plain, integrity: await integrityOf(plain, secret) };
}

/**
 * A sealed state as stored, checked: its format, its version and its integrity. Throws a
 * `ConfigurationError` saying what is wrong; `what` names the state (`run state`, …) and
 * `expected` says where a state of this format comes from.
 */
export async function openState<State extends { readonly integrity: string }>(
  value: unknown,
  sealed: {
    readonly format: string;
    readonly version: number;
    readonly what: string;
    readonly expected: string;
    readonly secret: string | undefined;
  },
): Promise<State> {
  const { format, version, what, expected, secret } = sealed;
  // A copy: the run that goes on appends to what it restores, and the caller's state stays as sealed.
  const state = (typeof value === 'string' ? parseState(value, what) : copyOf(value, what)) as
    (State & { format?: unknown; version?: unknown }) | null;
  if (typeof state !== 'object' || state === null || state.format !== format)
    refuse(
      `Not a ${what}: expected ${expected} (format '${format}'), as an object or its JSON text.`,
    );
  if (state.version !== version)
    refuse(
      `The ${what} has version ${String(state.version)}; this agent-trace reads version ${version}. Resume it with the agent-trace version that paused it.`,
    );
  const { integrity, ...body } = state;
  if (integrity !== (await integrityOf(body, secret)))
    refuse(
      secret === undefined
        ? `The ${what} was changed after it was made (its integrity does not match): it is refused. Resume from the state as the paused run returned it; if it was sealed with a stateSecret, pass the same one.`
        : `The ${what} does not match its integrity for this stateSecret: it was changed, or sealed with another secret (or none). It is refused.`,
    );
  return state;
}

function refuse(message: string): never {
  throw new ConfigurationError({ option: 'state', message });
}

/**
 * Checks a state before a run goes on from it: its format and version, its integrity, and that
 * every pending call has exactly one decision. Throws a `ConfigurationError` saying what is wrong.
 */
export async function openRunState(
  value: unknown,
  decisions: readonly ApprovalDecision[],
  secret: string | undefined,
): Promise<RunStateSnapshot> {
  const state = await openState<RunStateSnapshot>(value, {
    format: RUN_STATE_FORMAT,
    version: RUN_STATE_VERSION,
    what: 'run state',
    expected: "the 'state' of a result that stopped with 'interrupted'",
    secret,
  });
  checkDecisions(state.turn.pending, decisions);
  return state;
}

function copyOf(value: unknown, what: string): unknown {
  try {
    return structuredClone(value);
  } catch (error) {
    return refuse(
      `The ${what} cannot be copied as plain data (${error instanceof Error ? error.message : String(error)}): pass it as the result gave it, or as its JSON text.`,
    );
  }
}

function parseState(text: string, what: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    return refuse(
      `The ${what} is not valid JSON (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
}

export function checkDecisions(
  pending: readonly PendingApproval[],
  decisions: readonly ApprovalDecision[],
): void {
  const waiting = new Set(pending.map(approval => approval.callId));
  const seen = new Set<string>();
  for (const decision of decisions) {
    if (!waiting.has(decision.callId))
      refuse(
        `A decision names call '${decision.callId}', which is not waiting for approval. The pending calls: ${[...waiting].join(', ')}.`,
      );
    if (seen.has(decision.callId))
      refuse(`Call '${decision.callId}' has two decisions; give one per pending call.`);
    if (!['approve', 'reject', 'edit'].includes(decision.decision))
      refuse(
        `The decision on call '${decision.callId}' is ${JSON.stringify(decision.decision)}: expected 'approve', 'reject' or 'edit'.`,
      );
    seen.add(decision.callId);
  }
  const missing = [...waiting].filter(callId => !seen.has(callId));
  if (missing.length > 0)
    refuse(
      `No decision for ${missing.map(callId => `'${callId}'`).join(', ')}: every pending call needs one (approve, reject with a reason, or edit its arguments).`,
    );
}
