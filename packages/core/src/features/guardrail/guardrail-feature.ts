import type { AnyAgent } from '../../kernel/agent/agent.js';
import { ToolCallError } from '../../kernel/errors/tool-call-error.js';
import { canonicalJson } from '../../kernel/util/canonical-json.js';
import type {
  Feature,
  FeatureContext,
  FeatureHooks,
  Stop,
  ToolRoundAt,
} from '../../kernel/run/seam/feature.js';
import type { Guardrail, GuardrailCheck } from '../../kernel/agent/guardrail.js';
import { guardrailsOf } from './guardrail-options.js';
import { runGuardrails } from './run-guardrails.js';

/**
 * Guardrails as a feature of the run: an agent's input guardrails see the input before its first
 * model call, its output guardrails the answer before the turn ends with it, its tool guardrails
 * each call's arguments before the call runs (first attempts); a `block` stops the turn
 * (`guardrail_blocked`) or refuses the call. Guardrails that keep a token budget are told each
 * model call's usage.
 */
export const guardrailFeature: Feature = {
  name: 'guardrails',
  version: 2,
  forRun: () => guardrailHooks,
};

const guardrailHooks: FeatureHooks = {
  appliesTo: agent => {
    const { input, output, tool } = guardrailsOf(agent);
    return input.length + output.length + tool.length > 0;
  },
  beforeTurn: at => stageStop(at, 'input', at.input),
  beforeAnswer: at => stageStop(at, 'output', at.text),
  afterModelCall({ agent, response, session }): void {
    for (const guardrail of budgetGuardrails(agent))
      guardrail.recordUsage?.(response.usage, { session });
  },
  beforeToolRound: guardRound,
};

const stopped = { input: 'blocked the run', output: 'withheld the answer' } as const;

/** The agent's guardrails of `stage` on `text`: a stop on the first `block`. */
async function stageStop(
  at: FeatureContext,
  stage: 'input' | 'output',
  text: string,
): Promise<Stop | undefined> {
  const guardrails = guardrailsOf(at.agent)[stage];
  if (guardrails.length === 0) return undefined;
  const check: GuardrailCheck = { stage, text, agentName: at.agent.name, session: at.session };
  const blocked = await runGuardrails(guardrails, check, at.record);
  return blocked === undefined
    ? undefined
    : {
        kind: 'stop',
        reason: 'guardrail_blocked',
        detail: `${stage} guardrail '${blocked.guardrail}' ${stopped[stage]}: ${blocked.reason}`,
      };
}

/** Tool-stage guardrails, in call order, on first attempts: the calls they block, with why. */
async function guardRound({
  agent,
  session,
  calls,
}: ToolRoundAt): Promise<ReadonlyMap<string, ToolCallError> | undefined> {
  const { tool } = guardrailsOf(agent);
  if (tool.length === 0) return undefined;
  const blocked = new Map<string, ToolCallError>();
  for (const { call, args, attempt, record } of calls) {
    if (attempt > 1) continue;
    const finding = await runGuardrails(
      tool,
      {
        stage: 'tool',
        text: canonicalJson(args),
        agentName: agent.name,
        session,
        toolName: call.toolName,
        args,
      },
      record,
    );
    if (finding === undefined) continue;
    blocked.set(
      call.callId,
      new ToolCallError({
        kind: 'guardrail_blocked',
        toolName: call.toolName,
        message: `Tool call to '${call.toolName}' was blocked by guardrail '${finding.guardrail}': ${finding.reason}. Do not repeat it.`,
      }),
    );
  }
  return blocked;
}

const budgetGuardrailsOf = new WeakMap<AnyAgent, readonly Guardrail[]>();

/** The agent's guardrails that keep a token budget, each once: told what each model call used. */
function budgetGuardrails(agent: AnyAgent): readonly Guardrail[] {
  let found = budgetGuardrailsOf.get(agent);
  if (found === undefined) {
    const { input, output, tool } = guardrailsOf(agent);
    found = [...new Set([...input, ...output, ...tool])].filter(
      guardrail => guardrail.recordUsage !== undefined,
    );
    budgetGuardrailsOf.set(agent, found);
  }
  return found;
}
