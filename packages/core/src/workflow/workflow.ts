import type { AnyAgent } from '../kernel/agent/agent.js';
import { ConfigurationError } from '../kernel/errors/configuration-error.js';
import type { AnyTool } from '../kernel/tool/tool.js';
import { ConditionError, parseCondition, stepsRead, type Condition } from './condition.js';
import { inputExpressions } from './step-input.js';

/** Where something is in a workflow file (1-based). */
export interface SourcePosition {
  readonly line: number;
  readonly column: number;
}

/** What a workflow step runs: a tool, an agent, or a wait for a person's approval. */
export type WorkflowStepRuns =
  | { readonly kind: 'tool'; readonly name: string; readonly tool: AnyTool }
  | { readonly kind: 'agent'; readonly name: string; readonly agent: AnyAgent }
  | {
      readonly kind: 'approval';
      /** What the person is asked. */
      readonly prompt: string;
    };

/** An expression of the condition language, as written and parsed. */
export interface StepExpression {
  readonly text: string;
  readonly parsed: Condition;
}

/** One step of a workflow, checked. */
export interface WorkflowStep {
  readonly name: string;
  readonly runs: WorkflowStepRuns;
  /**
   * The input, as written: strings holding `${…}` are filled in from earlier steps' outputs and
   * the workflow's input when the step runs. Undefined: the one dependency's output, the outputs
   * of several by step name, or the workflow's input for a step with none.
   */
  readonly input: unknown;
  readonly dependsOn: readonly string[];
  /**
   * Whether the step may run beside other steps. `false`: it runs alone, waiting until the steps
   * running have ended, and no other step starts until it ends. @defaultValue true
   */
  readonly parallel: boolean;
  /**
   * Fan-out: an expression of the condition language naming a list (`steps.clean.output`); the
   * step runs once per item, the item as its input, the items at the same time. Its output is
   * the list of the items' outputs, in order.
   */
  readonly forEach: StepExpression | undefined;
  /** Runs the step only when it holds; `always` also runs it after a dependency failed. */
  readonly condition: StepExpression | undefined;
  /** Retries of a failing step (each item of a `forEach` one). @defaultValue 0 */
  readonly retries: number;
  /** How long one attempt may take, in milliseconds. */
  readonly timeoutMs: number | undefined;
  /** Where the step is written, for a workflow loaded from a file. */
  readonly at?: SourcePosition;
}

/** A workflow: named steps and their dependencies, checked. Made by `workflow()` or `loadWorkflow()`. */
export interface Workflow {
  readonly name: string;
  readonly steps: readonly WorkflowStep[];
}

/** One step of {@link workflow}'s definition. */
export interface WorkflowStepDefinition {
  readonly name: string;
  /** The tool the step calls; give exactly one of `tool`, `agent` and `approval`. */
  readonly tool?: AnyTool;
  /** The agent the step runs, given its input as text (JSON unless a string). */
  readonly agent?: AnyAgent;
  /** Waits for a person: what they are asked. The run pauses (`interrupted`) until resumed. */
  readonly approval?: string;
  readonly input?: unknown;
  readonly dependsOn?: readonly string[];
  /** `false`: the step runs alone, not beside other steps. @defaultValue true */
  readonly parallel?: boolean;
  /** Runs the step once per item of this list, e.g. `steps.clean.output` (no `input` then). */
  readonly forEach?: string;
  /** A condition over earlier steps, e.g. `steps.collect.output.rows > 0`. */
  readonly condition?: string;
  readonly retries?: number;
  readonly timeoutMs?: number;
}

/** A mistake in a workflow's graph: which step, which of its keys, and what is wrong. */
export interface WorkflowProblem {
  readonly step: string;
  readonly key: 'name' | 'depends_on' | 'condition' | 'input' | 'for_each';
  /** For `depends_on`: which dependency. */
  readonly index?: number;
  readonly problem: string;
}

/**
 * Defines a workflow in code: steps that call a tool, run an agent or wait for approval, with
 * dependencies, conditions, retries and timeouts. Checked at once: a duplicate name, a missing
 * dependency, a cycle or a bad condition is a `ConfigurationError` naming the step. Run it with
 * `runWorkflow`.
 *
 * @example
 * ```ts
 * const pipeline = workflow({
 *   name: 'report',
 *   steps: [
 *     { name: 'collect', tool: collector },
 *     { name: 'analyse', agent: analyst, dependsOn: ['collect'] },
 *     { name: 'publish', approval: 'Publish the report?', dependsOn: ['analyse'] },
 *   ],
 * });
 * ```
 */
export function workflow(definition: {
  readonly name: string;
  readonly steps: readonly WorkflowStepDefinition[];
}): Workflow {
  const fail = (message: string): never => {
    throw new ConfigurationError({ option: 'workflow', message });
  };
  if (typeof definition?.name !== 'string' || definition.name.trim() === '')
    fail('A workflow needs a name: workflow({ name: "report", steps: [...] }).');
  if (!Array.isArray(definition.steps) || definition.steps.length === 0)
    fail(
      `Workflow '${definition.name}' has no steps: give steps: [{ name, tool | agent | approval }].`,
    );
  const steps = definition.steps.map(step => definedStep(definition.name, step, fail));
  const problem = workflowProblem(steps);
  if (problem !== undefined)
    fail(
      `Workflow '${definition.name}', step '${problem.step}' (${problem.key}): ${problem.problem}`,
    );
  return { name: definition.name, steps };
}

function definedStep(
  workflowName: string,
  step: WorkflowStepDefinition,
  fail: (message: string) => never,
): WorkflowStep {
  const where = `Workflow '${workflowName}', step '${String(step.name)}'`;
  if (typeof step.name !== 'string' || step.name.trim() === '')
    fail(`Workflow '${workflowName}' has a step without a name: give each step a unique name.`);
  const given = [step.tool, step.agent, step.approval].filter(value => value !== undefined);
  if (given.length !== 1)
    fail(`${where}: give exactly one of tool, agent and approval (it has ${given.length}).`);
  const runs: WorkflowStepRuns =
    step.tool !== undefined
      ? { kind: 'tool', name: step.tool.name, tool: step.tool }
      : step.agent !== undefined
        ? { kind: 'agent', name: step.agent.name, agent: step.agent }
        : { kind: 'approval', prompt: String(step.approval) };
  for (const [key, value, min] of [
    ['retries', step.retries, 0],
    ['timeoutMs', step.timeoutMs, 1],
  ] as const) {
    if (value !== undefined && !(Number.isInteger(value) && value >= min))
      fail(
        `${where}: ${key} must be a whole number of at least ${min} (actual: ${String(value)}).`,
      );
  }
  return {
    name: step.name,
    runs,
    input: step.input,
    dependsOn: [...(step.dependsOn ?? [])],
    parallel: step.parallel ?? true,
    forEach:
      step.forEach === undefined
        ? undefined
        : definedExpression(`${where}: bad for_each`, step.forEach, fail),
    condition:
      step.condition === undefined
        ? undefined
        : definedExpression(`${where}: bad condition`, step.condition, fail),
    retries: step.retries ?? 0,
    timeoutMs: step.timeoutMs,
  };
}

function definedExpression(
  what: string,
  text: string,
  fail: (message: string) => never,
): StepExpression {
  try {
    return { text, parsed: parseCondition(text) };
  } catch (error) {
    if (!(error instanceof ConditionError)) throw error;
    return fail(`${what} at column ${error.column}: ${error.problem}`);
  }
}

/**
 * The first mistake in a workflow's graph, or undefined: a second step of the same name, a
 * dependency that is not a step, a dependency cycle (named), or a condition reading a step that
 * does not run before it.
 */
export function workflowProblem(steps: readonly WorkflowStep[]): WorkflowProblem | undefined {
  const names = new Set<string>();
  for (const step of steps) {
    if (names.has(step.name))
      return {
        step: step.name,
        key: 'name',
        problem: `a second step named '${step.name}': step names must be unique`,
      };
    names.add(step.name);
  }
  for (const step of steps) {
    const index = step.dependsOn.findIndex(dependency => !names.has(dependency));
    if (index >= 0)
      return {
        step: step.name,
        key: 'depends_on',
        index,
        problem: `step '${step.name}' depends on '${String(step.dependsOn[index])}', which is not a step of this workflow: the steps are ${[...names].join(', ')}`,
      };
  }
  const cycle = findCycle(steps);
  if (cycle !== undefined)
    return {
      step: cycle[0] as string,
      key: 'depends_on',
      problem: `the steps depend on each other in a cycle: ${cycle.join(' → ')}. Remove one of these dependencies.`,
    };
  return conditionProblem(steps);
}

/** A dependency cycle, as step names with the first repeated at the end; undefined when none. */
function findCycle(steps: readonly WorkflowStep[]): string[] | undefined {
  const byName = new Map(steps.map(step => [step.name, step]));
  const state = new Map<string, 'visiting' | 'done'>();
  const path: string[] = [];
  const visit = (name: string): string[] | undefined => {
    if (state.get(name) === 'done') return undefined;
    if (state.get(name) === 'visiting') return [...path.slice(path.indexOf(name)), name];
    state.set(name, 'visiting');
    path.push(name);
    for (const dependency of byName.get(name)?.dependsOn ?? []) {
      const cycle = visit(dependency);
      if (cycle !== undefined) return cycle;
    }
    path.pop();
    state.set(name, 'done');
    return undefined;
  };
  for (const step of steps) {
    const cycle = visit(step.name);
    if (cycle !== undefined) return cycle;
  }
  return undefined;
}

/** True when `target` runs before `step`: it is a dependency of it, or of one of those, and so on. */
function runsBefore(
  byName: ReadonlyMap<string, WorkflowStep>,
  step: WorkflowStep,
  target: string,
): boolean {
  const seen = new Set<string>();
  const pending = [...step.dependsOn];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (next === target) return true;
    if (seen.has(next)) continue;
    seen.add(next);
    pending.push(...(byName.get(next)?.dependsOn ?? []));
  }
  return false;
}

/**
 * A condition, a `forEach`, and the `${…}` of an input, may read only steps that run before
 * their own (its dependencies, transitively).
 */
function conditionProblem(steps: readonly WorkflowStep[]): WorkflowProblem | undefined {
  const byName = new Map(steps.map(step => [step.name, step]));
  for (const step of steps) {
    const unreadBy = (condition: Condition) =>
      stepsRead(condition).find(name => !runsBefore(byName, step, name));
    const unread = step.condition === undefined ? undefined : unreadBy(step.condition.parsed);
    if (unread !== undefined)
      return {
        step: step.name,
        key: 'condition',
        problem: `the condition of step '${step.name}' reads step '${unread}', which does not run before it: add '${unread}' to its depends_on`,
      };
    const problem = forEachProblem(step, unreadBy) ?? inputProblem(step, unreadBy);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** A `forEach` runs a tool or agent, gives each item as the input, and reads earlier steps only. */
function forEachProblem(
  step: WorkflowStep,
  unreadBy: (condition: Condition) => string | undefined,
): WorkflowProblem | undefined {
  if (step.forEach === undefined) return undefined;
  const problem = (text: string): WorkflowProblem => ({
    step: step.name,
    key: 'for_each',
    problem: text,
  });
  if (step.runs.kind === 'approval')
    return problem(
      `step '${step.name}' waits for approval, which runs once: remove for_each, or move it to the step that does the work`,
    );
  if (step.input !== undefined)
    return problem(
      `step '${step.name}' has both for_each and input: each item of for_each is the step's input, so remove input (or build the list it runs over in an earlier step)`,
    );
  const unread = unreadBy(step.forEach.parsed);
  return unread === undefined
    ? undefined
    : problem(
        `the for_each of step '${step.name}' reads step '${unread}', which does not run before it: add '${unread}' to its depends_on`,
      );
}

function inputProblem(
  step: WorkflowStep,
  unreadBy: (condition: Condition) => string | undefined,
): WorkflowProblem | undefined {
  let expressions: Condition[];
  try {
    expressions = inputExpressions(step.input);
  } catch (error) {
    if (!(error instanceof ConditionError)) throw error;
    return { step: step.name, key: 'input', problem: `bad \${…} in the input: ${error.problem}` };
  }
  for (const expression of expressions) {
    const unread = unreadBy(expression);
    if (unread !== undefined)
      return {
        step: step.name,
        key: 'input',
        problem: `the input of step '${step.name}' reads step '${unread}', which does not run before it: add '${unread}' to its depends_on`,
      };
  }
  return undefined;
}
