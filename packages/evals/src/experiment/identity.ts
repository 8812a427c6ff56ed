import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import type { AnyAgent } from '@agent-trace/core';
import { canonicalJson, defined } from '@agent-trace/core/util';
import { z } from 'zod';
import type { EvalDefinition } from '../define-eval.js';
import type { PlacedCase } from '../run-eval.js';

/** The code an experiment ran: the commit, whether the work tree had changes, and the branch. */
export interface GitState {
  readonly commit?: string;
  readonly branch?: string;
  /** True when tracked files differed from the commit. */
  readonly dirty?: boolean;
}

/**
 * The git state of `cwd`: nothing when it is not in a git work tree. The branch is
 * `AGENT_TRACE_BRANCH` when set; on a detached head (as CI checks out), the CI's branch variable
 * (`GITHUB_HEAD_REF`, `GITHUB_REF_NAME`, `CI_COMMIT_REF_NAME`) when there is one.
 */
export function gitState(cwd: string, env: NodeJS.ProcessEnv): GitState {
  // One probe: the commit, the branch and the changed tracked files, as `git status` has them.
  let lines: string[] = [];
  try {
    lines = execFileSync('git', ['status', '--porcelain=v2', '--branch', '-uno'], {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).split('\n');
  } catch {
    // Not a git checkout, or no git: the experiment says nothing of its code.
  }
  const header = (name: string) =>
    lines.find(line => line.startsWith(`# branch.${name} `))?.slice(`# branch.${name} `.length);
  const oid = header('oid');
  const commit = oid === undefined || oid === '(initial)' ? undefined : oid;
  const head = header('head');
  const ciBranch = env.GITHUB_HEAD_REF || env.GITHUB_REF_NAME || env.CI_COMMIT_REF_NAME;
  const branch =
    env.AGENT_TRACE_BRANCH || (head === '(detached)' || head === undefined ? ciBranch : head);
  const dirty =
    commit === undefined ? undefined : lines.some(line => line !== '' && !line.startsWith('#'));
  return {
    ...defined('commit', commit),
    ...(branch ? { branch } : {}),
    ...(dirty === undefined ? {} : { dirty }),
  };
}

/** The SHA-256 of a value's canonical JSON (keys sorted): the same data, the same hash. */
export function hashOf(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}

/** The hash of a whole dataset (every case, before a filter or shard), so shards share it. */
export function datasetHash(cases: readonly PlacedCase[]): string {
  return hashOf(cases.map(({ id, evalCase }) => ({ id, ...evalCase })));
}

/**
 * The hash of what the task runs: the definition's `config` when it gives one; else the agent's
 * configuration (instructions, models, tools and their schemas, output schema, limits, handoffs);
 * else a function task's source.
 */
export function configHash(definition: EvalDefinition): string {
  if (definition.config !== undefined) return hashOf(definition.config);
  const { task } = definition;
  return hashOf(typeof task === 'function' ? task.toString() : agentConfig(task, new Set()));
}

function agentConfig(agent: AnyAgent, seen: Set<AnyAgent>): unknown {
  if (seen.has(agent)) return { agent: agent.name };
  seen.add(agent);
  return {
    name: agent.name,
    instructions: agent.instructions,
    model: modelConfig(agent.model),
    fallbackModel: agent.fallbackModel === undefined ? null : modelConfig(agent.fallbackModel),
    tools: agent.tools.map(tool => tool.definition),
    toolCalling: agent.toolCalling,
    output: agent.output === undefined ? null : schemaOf(agent.output),
    limits: agent.limits,
    handoffs: agent.handoffs().map(handoff => agentConfig(handoff.agent, seen)),
  };
}

function modelConfig(model: AnyAgent['model']): unknown {
  return { provider: model.provider, id: model.modelId, settings: model.settings ?? null };
}

function schemaOf(schema: z.ZodType): unknown {
  try {
    return z.toJSONSchema(schema);
  } catch {
    return 'unrepresentable schema';
  }
}
