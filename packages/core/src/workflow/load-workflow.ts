import type { LineCounter, Node as YamlNode, Scalar, YAMLMap } from 'yaml';
import type { AnyAgent } from '../kernel/agent/agent.js';
import type { AnyTool } from '../kernel/tool/tool.js';
import { ConditionError, parseCondition } from './condition.js';
import { yaml } from './yaml-peer.js';
import {
  workflowProblem,
  type SourcePosition,
  type Workflow,
  type WorkflowStep,
} from './workflow.js';

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
  /** The tools a step may call, by their names. */
  readonly tools?: readonly AnyTool[];
  /** The agents a step may run, by their names. */
  readonly agents?: readonly AnyAgent[];
}

class Source {
  readonly #lines: LineCounter = new (yaml().LineCounter)();
  readonly file: string;
  readonly root: YamlNode | null;

  constructor(text: string, file: string) {
    this.file = file;
    const document = yaml().parseDocument(text, { lineCounter: this.#lines, uniqueKeys: true });
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
 * or agent (found among `tools` and `agents`), dependencies that exist and form no cycle,
 * conditions and `${…}` inputs that parse and read only earlier steps, and unique step names. A
 * mistake is a {@link WorkflowLoadError} with file:line:column and how to fix it.
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
  if (!yaml().isSeq(stepsNode) || stepsNode.items.length === 0)
    source.fail(stepsNode ?? workflow, "'steps' must be a list of steps: - name: …, tool: …");
  const nodes = new Map<string, YAMLMap>();
  const steps = stepsNode.items.map(item => readStep(source, item as YamlNode, nodes, options));
  const problem = workflowProblem(steps);
  if (problem !== undefined) {
    const step = nodes.get(problem.step);
    const node = step?.get(problem.key, true) as YamlNode | undefined;
    source.fail(
      problem.index !== undefined && yaml().isSeq(node)
        ? (node.items[problem.index] as YamlNode)
        : (node ?? step),
      problem.problem,
    );
  }
  return { name, steps };
}

/** The mapping at `node`, or an error saying what it must hold. */
function mapping(
  source: Source,
  node: YamlNode | null | undefined,
  what: string,
  expected: string,
): YAMLMap {
  if (!yaml().isMap(node)) source.fail(node, `${what} must be a mapping with ${expected}`);
  return node;
}

/** The non-empty string at `node`; when it is missing, the error points at `owner`. */
function stringAt(
  source: Source,
  node: YamlNode | undefined,
  owner: YamlNode,
  what: string,
): string {
  if (!yaml().isScalar(node) || typeof node.value !== 'string' || node.value.trim() === '')
    source.fail(node ?? owner, `${what} must be a non-empty string`);
  return node.value;
}

const stepKeys = new Set([
  'name',
  'tool',
  'agent',
  'approval',
  'input',
  'depends_on',
  'parallel',
  'for_each',
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
  const step = mapping(source, node, 'a step', 'name and tool (or agent, or approval)');
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
    input: (step.get('input', true) as YamlNode | undefined)?.toJSON() as unknown,
    dependsOn: readDependsOn(source, step),
    parallel: readBoolean(source, step, 'parallel') ?? true,
    forEach: readExpression(source, step, 'for_each'),
    condition: readExpression(source, step, 'condition'),
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
  const given = (['tool', 'agent', 'approval'] as const).filter(key => step.has(key));
  const kind = given[0];
  if (given.length !== 1 || kind === undefined)
    source.fail(step, `step '${name}' must name exactly one of tool, agent and approval`);
  const node = step.get(kind, true) as YamlNode;
  const value = stringAt(source, node, step, `the ${kind} of step '${name}'`);
  if (kind === 'approval') return { kind, prompt: value };
  const known: readonly { readonly name: string }[] =
    (kind === 'tool' ? options.tools : options.agents) ?? [];
  const found = known.find(candidate => candidate.name === value);
  if (found === undefined)
    source.fail(
      node,
      `unknown ${kind} '${value}' in step '${name}': the ${kind}s are ${known.map(candidate => candidate.name).join(', ') || `(none: pass ${kind}s to loadWorkflow)`}`,
    );
  return kind === 'tool'
    ? { kind, name: value, tool: found as AnyTool }
    : { kind, name: value, agent: found as AnyAgent };
}

function readDependsOn(source: Source, step: YAMLMap): string[] {
  const node = step.get('depends_on', true) as YamlNode | undefined;
  if (node === undefined) return [];
  if (!yaml().isSeq(node))
    source.fail(node, "'depends_on' must be a list of step names: [collect, clean]");
  return node.items.map(item => stringAt(source, item as YamlNode, node, 'a dependency'));
}

function readBoolean(source: Source, step: YAMLMap, key: string): boolean | undefined {
  const node = step.get(key, true) as YamlNode | undefined;
  if (node === undefined) return undefined;
  if (!yaml().isScalar(node) || typeof node.value !== 'boolean')
    source.fail(node, `'${key}' must be true or false`);
  return node.value;
}

function readInteger(source: Source, step: YAMLMap, key: string, min: number): number | undefined {
  const node = step.get(key, true) as YamlNode | undefined;
  if (node === undefined) return undefined;
  if (!yaml().isScalar(node) || !Number.isInteger(node.value) || (node.value as number) < min)
    source.fail(node, `'${key}' must be a whole number of at least ${min}`);
  return node.value as number;
}

/** A condition or a `for_each`: the condition language, bare or as one `${…}`. */
function readExpression(
  source: Source,
  step: YAMLMap,
  key: 'condition' | 'for_each',
): WorkflowStep['condition'] {
  const node = step.get(key, true) as YamlNode | undefined;
  if (node === undefined) return undefined;
  const written = stringAt(source, node, step, `a step's ${key}`);
  const wrapped = /^\$\{(.*)\}$/s.exec(written.trim());
  const text = key === 'for_each' && wrapped !== null ? (wrapped[1] as string).trim() : written;
  const quoted =
    yaml().isScalar(node) && (node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE');
  try {
    return { text, parsed: parseCondition(text) };
  } catch (error) {
    if (!(error instanceof ConditionError)) throw error;
    const shift = text === written ? 0 : written.indexOf(text);
    return source.fail(
      node,
      `bad ${key}: ${error.problem}`,
      error.column - 1 + shift + (quoted ? 1 : 0),
    );
  }
}
