/**
 * A generated workflow as today's code: a first step gives the items, each agent step runs its
 * agent beside it (on the workflow's input) or after it (on the items), and a `for_each` step runs
 * a tool once per item, all at once, retried as the spec says.
 */
import { tool, type AnyAgent } from '@agent-trace/core';
import { workflow, type Workflow, type WorkflowStepDefinition } from '@agent-trace/core/workflow';
import { z } from 'zod';
import { give } from './build-program.js';
import type { Outcome, WorkflowSpec } from './program.js';

/** Today's workflow of `spec` over the built `agents`. */
export function buildWorkflow(spec: WorkflowSpec, agents: readonly AnyAgent[]): Workflow {
  const gather = tool({
    name: 'gather',
    description: 'Gathers the items',
    input: z.unknown(),
    execute: () => Array.from({ length: spec.items }, (_, index) => index + 1),
  });
  const steps: WorkflowStepDefinition[] = [{ name: 'gather', tool: gather }];
  for (const { agent: index, after } of spec.agentSteps) {
    const agent = agents[index] as AnyAgent;
    steps.push({
      name: `ask-${agent.name}`,
      agent,
      ...(after ? { dependsOn: ['gather'], input: '${steps.gather.output}' } : {}),
    });
  }
  const each = spec.forEach;
  if (each !== undefined) {
    let calls = 0;
    const perItem = tool({
      name: each.tool.name,
      description: 'Handles one item',
      input: z.unknown(),
      ...(each.tool.timeoutMs === undefined ? {} : { timeoutMs: each.tool.timeoutMs }),
      execute: (_item, { abortSignal }) => {
        const outcome = each.tool.outcomes[
          Math.min(calls, each.tool.outcomes.length - 1)
        ] as Outcome;
        calls++;
        return give(outcome, each.tool.name, abortSignal);
      },
    });
    steps.push({
      name: 'each',
      tool: perItem,
      dependsOn: ['gather'],
      forEach: 'steps.gather.output',
      retries: each.retries,
    });
  }
  return workflow({ name: 'generated', steps });
}
