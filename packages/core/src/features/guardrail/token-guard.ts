import type { Usage } from '../../kernel/protocol/usage.js';
import { estimateTokens, type Guardrail } from '../../kernel/agent/guardrail.js';

/** A per-session token budget: see {@link tokenGuard}. */
export interface TokenGuard extends Guardrail {
  /** Tokens used so far by `session`. */
  used(session: string): number;
}

/**
 * A per-session token budget: it counts the tokens of every model call
 * of every run in a session (`run(…, { session })`), warns once `warnAt` of the budget is used
 * and blocks input that would go past the budget. Use it as an input guardrail; one instance
 * keeps the counts, so share it between the agents of a session.
 * @param warnAt - the share of the budget that triggers a warning @defaultValue 0.8
 */
export function tokenGuard({
  budget,
  warnAt = 0.8,
}: {
  budget: number;
  warnAt?: number;
}): TokenGuard {
  const usedBySession = new Map<string, number>();
  const used = (session: string): number => usedBySession.get(session) ?? 0;
  return {
    name: 'token_guard',
    used,
    check: ({ session, text }) => {
      const spent = used(session);
      const needed = estimateTokens(text);
      const details = { used: spent, budget, estimate: needed };
      if (spent + needed > budget) {
        return {
          verdict: 'block',
          reason: `session '${session}' has used ${spent} of its ${budget} tokens; this input needs about ${needed} more`,
          details,
        };
      }
      if (spent + needed >= budget * warnAt) {
        return {
          verdict: 'warn',
          reason: `session '${session}' has used ${spent} of its ${budget} tokens (${Math.round(warnAt * 100)}% warning threshold)`,
          details,
        };
      }
      return { verdict: 'allow' };
    },
    recordUsage: (usage: Usage, { session }) => {
      usedBySession.set(session, used(session) + usage.promptTokens + usage.completionTokens);
    },
  };
}
