import {
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  parseDocument,
  Scalar,
  type Node as YamlNode,
  type YAMLMap,
} from 'yaml';
import { ConditionError, parseCondition, stepsRead, type Condition } from './condition.js';

/** Where something is in a workflow file (1-based). */
export interface SourcePosition {
  readonly line: number;
  readonly column: number;
}

/** One step of a workflow, as loaded and checked. */
export interface WorkflowStep {
  readonly name: string;
  /** What the step runs: a tool or an agent, by name. */
  readonly runs: { readonly kind: 'tool' | 'agent'; readonly name: string };
  /** The input given to the tool or agent, as written (earlier outputs are filled in when run). */
  readonly input: unknown;
  readonly dependsOn: readonly string[];
  /** May run at the same time as other steps whose dependencies are done. @defaultValue true */
  readonly parallel: boolean;
  readonly condition: { readonly text: string; readonly parsed: Condition } | undefined;
  /** Retries of a failing step. @defaultValue 0 */
  readonly retries: number;
  readonly timeoutMs: number | undefined;
  readonly at: SourcePosition;
}

/** A workflow: named steps and their dependencies, checked. */
export interface Workflow {
  readonly name: string;
  readonly steps: readonly WorkflowStep[];
}

/** A workflow file that does not load: where, what, and how to fix it. */
export class WorkflowLoadError extends Error {
  constructor(
    readonly file: string,
    readonly at: SourcePosition,
    readonly problem: string,
  ) {
    super(`${file}:${at.line}:${at.column}: ${problem}`);
    this.name = 'WorkflowLoadError';
  }
}

/** Options of {@link loadWorkflow}. */
export interface LoadWorkflowOptions {
  /** The file's name, for errors. @defaultValue 'workflow.yaml' */
  readonly file?: string;
  /** The tools a step may run. */
  readonly tools?: readonly string[];
  /** The agents a step may run. */
  readonly agents?: readonly string[];
}

class Source {
  readonly #lines = new LineCounter();
  readonly file: string;
  readonly root: YamlNode | null;

  constructor(text: string, file: string) {
    this.file = file;
    const document = parseDocument(text, { lineCounter: this.#lines, uniqueKeys: true });
    const [error] = document.errors;
    if (error !== undefined) {
      const { line, col } = error.linePos?.[0] ?? { line: 1, col: 1 };
      throw new WorkflowLoadError(
        file,
        { line, column: col },
        `not valid YAML: ${(error.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '')}.`,
      );
    }
    this.root = document.contents;
  }

  /** Where a node starts, plus `offset` characters. */
  at(node: YamlNode | null | undefined, offset = 0): SourcePosition {
    const start = (node?.range?.[0] ?? 0) + offset;
    const { line, col } = this.#lines.linePos(start);
    return { line, column: col };
  }

  fail(node: YamlNode | null | undefined, problem: string, offset = 0): never {
    throw new WorkflowLoadError(this.file, this.at(node, offset), problem);
  }
}

/**
 * Loads a workflow from YAML (or JSON, which is YAML) and checks it: its shape, each step's tool
 * or agent, dependencies that exist and form no cycle, conditions that parse and read only
 * earlier steps, and unique step names. A mistake is a {@link WorkflowLoadError} with
 * file:line:column and how to fix it.
 *
 * ```yaml
 * workflow:
 *   name: analysis
 *   steps:
 *     - name: collect
 *       tool: data_collector
 *     - name: analyse
 *       tool: analyzer
 *       depends_on: [collect]
 *       condition: steps.collect.output.rows > 0
 * ```
 */
export function loadWorkflow(text: string, options: LoadWorkflowOptions = {}): Workflow {
  const source: Source = new Source(text, options.file ?? 'workflow.yaml');
  const top = mapping(source, source.root, 'the file', 'workflow: { name, steps }');
  const workflow = mapping(source, top.get('workflow', true), "'workflow'", 'name and steps');
  const nameNode = workflow.get('name', true) as YamlNode | undefined;
  const name = stringAt(source, nameNode, workflow, "the workflow's name");
  const stepsNode = workflow.get('steps', true) as YamlNode | undefined;
  if (!isSeq(stepsNode) || stepsNode.items.length === 0)
    source.fail(stepsNode ?? workflow, "'steps' must be a list of steps: - name: …, tool: …");
  const nodes = new Map<string, YAMLMap>();
  const steps = stepsNode.items.map(item => readStep(source, item as YamlNode, nodes, options));
  checkDependencies(source, steps, nodes);
  checkConditions(source, steps, nodes);
  return { name, steps };
}

/** The mapping at `node`, or an error saying what it must hold. */
function mapping(
  source: Source,
  node: YamlNode | null | undefined,
  what: string,
  expected: string,
): YAMLMap {
  if (!isMap(node)) source.fail(node, `${what} must be a mapping with ${expected}`);
  return node;
}

/** The non-empty string at `node`; when it is missing, the error points at `owner`. */
function stringAt(
  source: Source,
  node: YamlNode | undefined,
  owner: YamlNode,
  what: string,
): string {
  if (!isScalar(node) || typeof node.value !== 'string' || node.value.trim() === '')
    source.fail(node ?? owner, `${what} must be a non-empty string`);
  return node.value;
}

const stepKeys = new Set([
  'name',
  'tool',
  'agent',
  'input',
  'depends_on',
  'parallel',
  'condition',
  'retries',
  'timeout_ms',
]);

function readStep(
  source: Source,
  node: YamlNode,
  nodes: Map<string, YAMLMap>,
  options: LoadWorkflowOptions,
): WorkflowStep {
  const step = mapping(source, node, 'a step', 'name and tool (or agent)');
  for (const pair of step.items) {
    const key = pair.key as Scalar;
    if (!stepKeys.has(String(key.value)))
      source.fail(
        key,
        `unknown key '${String(key.value)}' in a step: a step has ${[...stepKeys].join(', ')}`,
      );
  }
  const nameNode = step.get('name', true) as YamlNode | undefined;
  const name = stringAt(source, nameNode, step, "a step's name");
  const earlier = nodes.get(name);
  if (earlier !== undefined)
    source.fail(
      nameNode,
      `a second step named '${name}' (the first is at line ${source.at(earlier).line}): step names must be unique`,
    );
  nodes.set(name, step);
  return {
    name,
    runs: readRuns(source, step, name, options),
    input: step.get('input') ?? null,
    dependsOn: readDependsOn(source, step),
    parallel: readBoolean(source, step, 'parallel') ?? true,
    condition: readCondition(source, step),
    retries: readInteger(source, step, 'retries', 0) ?? 0,
    timeoutMs: readInteger(source, step, 'timeout_ms', 1),
    at: source.at(step),
  };
}

function readRuns(
  source: Source,
  step: YAMLMap,
  name: string,
  options: LoadWorkflowOptions,
): WorkflowStep['runs'] {
  const tool = step.get('tool', true) as YamlNode | undefined;
  const agent = step.get('agent', true) as YamlNode | undefined;
  if ((tool === undefined) === (agent === undefined))
    source.fail(step, `step '${name}' must name exactly one of tool or agent`);
  const kind = tool === undefined ? 'agent' : 'tool';
  const node = (tool ?? agent) as YamlNode;
  const value = stringAt(source, node, step, `the ${kind} of step '${name}'`);
  const known = kind === 'tool' ? options.tools : options.agents;
  if (known !== undefined && !known.includes(value))
    source.fail(
      node,
      `unknown ${kind} '${value}' in step '${name}': the ${kind}s are ${known.join(', ') || '(none)'}`,
    );
  return { kind, name: value };
}

function readDependsOn(source: Source, step: YAMLMap): string[] {
  const node = step.get('depends_on', true) as YamlNode | undefined;
  if (node === undefined) return [];
  if (!isSeq(node))
    source.fail(node, "'depends_on' must be a list of step names: [collect, clean]");
  return node.items.map(item => stringAt(source, item as YamlNode, node, 'a dependency'));
}

function readBoolean(source: Source, step: YAMLMap, key: string): boolean | undefined {
  const node = step.get(key, true) as YamlNode | undefined;
  if (node === undefined) return undefined;
  if (!isScalar(node) || typeof node.value !== 'boolean')
    source.fail(node, `'${key}' must be true or false`);
  return node.value;
}

function readInteger(source: Source, step: YAMLMap, key: string, min: number): number | undefined {
  const node = step.get(key, true) as YamlNode | undefined;
  if (node === undefined) return undefined;
  if (!isScalar(node) || !Number.isInteger(node.value) || (node.value as number) < min)
    source.fail(node, `'${key}' must be a whole number of at least ${min}`);
  return node.value as number;
}

function readCondition(source: Source, step: YAMLMap): WorkflowStep['condition'] {
  const node = step.get('condition', true) as YamlNode | undefined;
  if (node === undefined) return undefined;
  const text = stringAt(source, node, step, "a step's condition");
  const quoted =
    isScalar(node) && (node.type === Scalar.QUOTE_DOUBLE || node.type === Scalar.QUOTE_SINGLE);
  try {
    return { text, parsed: parseCondition(text) };
  } catch (error) {
    if (!(error instanceof ConditionError)) throw error;
    return source.fail(
      node,
      `bad condition: ${error.problem}`,
      error.column - 1 + (quoted ? 1 : 0),
    );
  }
}

function checkDependencies(
  source: Source,
  steps: readonly WorkflowStep[],
  nodes: ReadonlyMap<string, YAMLMap>,
): void {
  for (const step of steps) {
    const list = nodes.get(step.name)?.get('depends_on', true) as YamlNode | undefined;
    step.dependsOn.forEach((dependency, index) => {
      if (!nodes.has(dependency))
        source.fail(
          isSeq(list) ? (list.items[index] as YamlNode) : list,
          `step '${step.name}' depends on '${dependency}', which is not a step of this workflow: the steps are ${steps.map(other => other.name).join(', ')}`,
        );
    });
  }
  const cycle = findCycle(steps);
  if (cycle !== undefined) {
    const first = nodes.get(cycle[0] as string);
    source.fail(
      first?.get('depends_on', true) ?? first,
      `the steps depend on each other in a cycle: ${cycle.join(' → ')}. Remove one of these dependencies.`,
    );
  }
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

/** A condition may read only steps that run before its own (its dependencies, transitively). */
function checkConditions(
  source: Source,
  steps: readonly WorkflowStep[],
  nodes: ReadonlyMap<string, YAMLMap>,
): void {
  const byName = new Map(steps.map(step => [step.name, step]));
  const upstream = (name: string, seen = new Set<string>()): Set<string> => {
    for (const dependency of byName.get(name)?.dependsOn ?? []) {
      if (seen.has(dependency)) continue;
      seen.add(dependency);
      upstream(dependency, seen);
    }
    return seen;
  };
  for (const step of steps) {
    if (step.condition === undefined) continue;
    const before = upstream(step.name);
    const unread = stepsRead(step.condition.parsed).find(name => !before.has(name));
    if (unread !== undefined)
      source.fail(
        nodes.get(step.name)?.get('condition', true),
        `the condition of step '${step.name}' reads step '${unread}', which does not run before it: add '${unread}' to its depends_on`,
      );
  }
}
