import type { RecordEvent } from '../../kernel/run/seam/feature.js';
import type { Guardrail, GuardrailCheck, GuardrailFinding } from '../../kernel/agent/guardrail.js';
import { defined } from '../../kernel/util/defined.js';

/**
 * Asks each guardrail in turn; records every `warn` and `block` as a `guardrail` event (a finding
 * of the run); stops at the first `block`, which it returns. A guardrail that throws blocks.
 */
export async function runGuardrails(
  guardrails: readonly Guardrail[],
  check: GuardrailCheck,
  record: RecordEvent,
): Promise<GuardrailFinding | undefined> {
  for (const guardrail of guardrails) {
    let finding: GuardrailFinding | undefined;
    try {
      const verdict = await guardrail.check(check);
      if (verdict.verdict !== 'allow') {
        finding = {
          guardrail: guardrail.name,
          stage: check.stage,
          verdict: verdict.verdict,
          reason: verdict.reason,
          ...defined('details', verdict.details),
        };
      }
    } catch (error) {
      finding = {
        guardrail: guardrail.name,
        stage: check.stage,
        verdict: 'block',
        reason: `the guardrail threw: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
    if (finding === undefined) continue;
    record('guardrail', {
      guardrail: finding.guardrail,
      stage: finding.stage,
      verdict: finding.verdict,
      reason: finding.reason,
      ...defined('details', finding.details),
    });
    if (finding.verdict === 'block') return finding;
  }
  return undefined;
}
