import type { AnyAgent } from '../../kernel/agent/agent.js';
import type {
  ApprovalCheck,
  ApprovalKind,
  PendingApproval,
} from '../../kernel/protocol/approval.js';
import { delegationOf } from '../../kernel/agent/as-tool.js';
import type { ModelResponse } from '../../kernel/model/language-model.js';
import type { ToolCallRequest } from '../../kernel/protocol/message.js';
import { parseToolArguments } from '../../kernel/tool/execute-tool-call.js';

interface Gate {
  readonly check: ApprovalCheck;
  readonly kind: ApprovalKind;
  /** Validates the arguments; undefined when they do not validate (the call fails as usual). */
  readonly args: (call: ToolCallRequest) => { readonly value: unknown } | undefined;
}

const gatesOf = new WeakMap<AnyAgent, ReadonlyMap<string, Gate>>();

/** The agent's tools and handoffs that need approval, by the name the model calls them. */
function gates(agent: AnyAgent): ReadonlyMap<string, Gate> {
  const found = gatesOf.get(agent);
  if (found !== undefined) return found;
  const map = new Map<string, Gate>();
  for (const tool of agent.tools) {
    if (tool.needsApproval === undefined) continue;
    map.set(tool.name, {
      check: tool.needsApproval,
      kind: delegationOf(tool) === undefined ? 'tool' : 'delegation',
      args: call => {
        const parsed = parseToolArguments(call.argumentsText);
        const checked = parsed.ok ? tool.input.safeParse(parsed.value) : undefined;
        return checked?.success === true ? { value: checked.data } : undefined;
      },
    });
  }
  for (const handoff of agent.handoffs()) {
    if (handoff.needsApproval === undefined) continue;
    map.set(handoff.toolName, {
      check: handoff.needsApproval,
      kind: 'handoff',
      args: () => ({ value: {} }),
    });
  }
  gatesOf.set(agent, map);
  return map;
}

/** True when some tool or handoff of the agent may need approval. */
export function hasApprovalGates(agent: AnyAgent): boolean {
  return gates(agent).size > 0;
}

/**
 * The calls of a response that need a person's approval before they run: those whose tool (or
 * handoff) says so for their arguments. A call whose arguments do not validate is not asked
 * about: it fails as a tool error, as it would without approval.
 */
export async function approvalsNeeded(
  agent: AnyAgent,
  response: ModelResponse,
  session: string,
): Promise<readonly PendingApproval[] | undefined> {
  if (response.toolCalls.length === 0) return undefined;
  const byName = gates(agent);
  if (byName.size === 0) return undefined;
  const pending: PendingApproval[] = [];
  for (const call of response.toolCalls) {
    const gate = byName.get(call.toolName);
    const args = gate?.args(call);
    if (gate === undefined || args === undefined) continue;
    const context = {
      agentName: agent.name,
      toolName: call.toolName,
      callId: call.callId,
      session,
    };
    if (await gate.check(args.value, context))
      pending.push({
        callId: call.callId,
        toolName: call.toolName,
        kind: gate.kind,
        agent: agent.name,
        args: args.value,
      });
  }
  return pending;
}
