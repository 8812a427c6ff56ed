import type { AnyAgent } from '../../kernel/agent/agent.js';
import { ToolCallError } from '../../kernel/errors/tool-call-error.js';
import { canonicalJson } from '../../kernel/util/canonical-json.js';
import type { ModelResponse } from '../../kernel/model/language-model.js';
import type { AgentTurn, RunExtension, RunFeature, ToolRound } from '../../kernel/run/extension.js';
import type { Guardrail, GuardrailCheck } from '../../kernel/agent/guardrail.js';
import { runGuardrails } from './run-guardrails.js';

/**
 * Guardrails as a feature of the run: an agent's input guardrails see the input before its first
 * model call, its output guardrails the answer before the turn ends with it, its tool guardrails
 * each call's arguments before the call runs (first attempts); a `block` stops the turn
 * (`guardrail_blocked`) or refuses the call. Guardrails that keep a token budget are told each
 * model call's usage.
 */
export const guardrailFeature: RunFeature = {
  name: 'guardrails',
  forRun: () => guardrailExtension,
};

const guardrailExtension: RunExtension = {
  appliesTo: agent => {
    const { input, output, tool } = agent.guardrails;
    return input.length + output.length + tool.length > 0;
  },
  async beforeTurn(turn, input) {
    const { input: guardrails } = turn.agent.guardrails;
    if (guardrails.length === 0) return undefined;
    const blocked = await runGuardrails(guardrails, check(turn, 'input', input), on(turn));
    return blocked === undefined
      ? undefined
      : {
          kind: 'stop',
          reason: 'guardrail_blocked',
          detail: `input guardrail '${blocked.guardrail}' blocked the run: ${blocked.reason}`,
        };
  },
  async beforeAnswer(turn, text) {
    const { output: guardrails } = turn.agent.guardrails;
    if (guardrails.length === 0) return undefined;
    const blocked = await runGuardrails(guardrails, check(turn, 'output', text), on(turn));
    return blocked === undefined
      ? undefined
      : {
          kind: 'stop',
          reason: 'guardrail_blocked',
          detail: `output guardrail '${blocked.guardrail}' withheld the answer: ${blocked.reason}`,
        };
  },
  afterModelCall(turn: AgentTurn, response: ModelResponse): void {
    for (const guardrail of budgetGuardrails(turn.agent))
      guardrail.recordUsage?.(response.usage, { session: turn.state.tracer.session });
  },
  beforeToolRound: guardRound,
};

/** Tool-stage guardrails, in call order, on first attempts: the calls they block, with why. */
async function guardRound({
  agent,
  state,
  calls,
}: ToolRound): Promise<ReadonlyMap<string, ToolCallError> | undefined> {
  if (agent.guardrails.tool.length === 0) return undefined;
  const blocked = new Map<string, ToolCallError>();
  for (const { call, args, attempt, span } of calls) {
    if (attempt > 1) continue;
    const finding = await runGuardrails(
      agent.guardrails.tool,
      {
        stage: 'tool',
        text: canonicalJson(args),
        agentName: agent.name,
        session: state.tracer.session,
        toolName: call.toolName,
        args,
      },
      { tracer: state.tracer, parent: span, findings: state.guardrailFindings },
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

function check(turn: AgentTurn, stage: 'input' | 'output', text: string): GuardrailCheck {
  return { stage, text, agentName: turn.agent.name, session: turn.state.tracer.session };
}

function on(turn: AgentTurn) {
  return {
    tracer: turn.state.tracer,
    parent: turn.agentSpan,
    findings: turn.state.guardrailFindings,
  };
}

const budgetGuardrailsOf = new WeakMap<AnyAgent, readonly Guardrail[]>();

/** The agent's guardrails that keep a token budget, each once: told what each model call used. */
function budgetGuardrails(agent: AnyAgent): readonly Guardrail[] {
  let found = budgetGuardrailsOf.get(agent);
  if (found === undefined) {
    const { input, output, tool } = agent.guardrails;
    found = [...new Set([...input, ...output, ...tool])].filter(
      guardrail => guardrail.recordUsage !== undefined,
    );
    budgetGuardrailsOf.set(agent, found);
  }
  return found;
}
