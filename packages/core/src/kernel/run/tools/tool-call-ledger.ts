import type { ToolCallRequest } from '../../protocol/message.js';
import type { Usage } from '../../protocol/usage.js';
import type { TerminationContext } from '../../termination/termination-policy.js';
import { parseToolArguments } from '../../tool/execute-tool-call.js';
import { canonicalJson } from '../../util/canonical-json.js';

/** Counts the tool calls an agent has run, by tool and by tool + canonical arguments. */
/** A ledger's counts as plain data. */
export interface LedgerSnapshot {
  readonly total: number;
  readonly byTool: readonly (readonly [string, number])[];
  readonly byFingerprint: readonly (readonly [string, number])[];
}

export class ToolCallLedger {
  readonly #byTool = new Map<string, number>();
  readonly #byFingerprint = new Map<string, number>();
  readonly #fingerprints = new WeakMap<ToolCallRequest, string>();
  #total = 0;

  /** How many tool calls ran. */
  get total(): number {
    return this.#total;
  }

  /** The view a termination policy decides with. */
  context(step: number, usage: Usage): TerminationContext {
    return {
      step,
      usage,
      toolCallCounts: this.#byTool,
      callFingerprints: this.#byFingerprint,
      fingerprint: call => this.#fingerprint(call),
    };
  }

  /** The counts, as plain data (for a paused run's state). */
  snapshot(): LedgerSnapshot {
    return {
      total: this.#total,
      byTool: [...this.#byTool],
      byFingerprint: [...this.#byFingerprint],
    };
  }

  /** Takes the counts of a snapshot (a resumed run). */
  restore(snapshot: LedgerSnapshot): void {
    this.#total = snapshot.total;
    for (const [name, count] of snapshot.byTool) this.#byTool.set(name, count);
    for (const [fingerprint, count] of snapshot.byFingerprint)
      this.#byFingerprint.set(fingerprint, count);
  }

  /** Counts calls that ran. */
  record(calls: readonly ToolCallRequest[]): void {
    for (const call of calls) {
      this.#total++;
      this.#byTool.set(call.toolName, (this.#byTool.get(call.toolName) ?? 0) + 1);
      const fingerprint = this.#fingerprint(call);
      this.#byFingerprint.set(fingerprint, (this.#byFingerprint.get(fingerprint) ?? 0) + 1);
    }
  }

  #fingerprint(call: ToolCallRequest): string {
    let fingerprint = this.#fingerprints.get(call);
    if (fingerprint === undefined) {
      const parsed = parseToolArguments(call.argumentsText);
      fingerprint = `${call.toolName}\u0000${parsed.ok ? canonicalJson(parsed.value) : call.argumentsText}`;
      this.#fingerprints.set(call, fingerprint);
    }
    return fingerprint;
  }
}
