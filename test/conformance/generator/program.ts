/**
 * The grammar of generated agent programs: what the generator composes, as plain data (so a
 * program that fails shrinks, prints and is saved as a row of the conformance table). A program
 * is built into agents by `build-program.ts` and checked by `check-program.ts`.
 */
import fc from 'fast-check';

/** How a tool's zod input reads the model's arguments. */
export type SchemaKind =
  | 'plain'
  | 'default'
  | 'transform'
  | 'optional'
  | 'refine'
  | 'preprocess'
  | 'union'
  | 'discriminated';

/** What a tool's call gives, call by call (the last repeats). */
export type Outcome =
  | { readonly kind: 'value'; readonly value: ValueKind }
  | { readonly kind: 'throw' }
  | { readonly kind: 'throw-string' }
  | { readonly kind: 'refuse' }
  | { readonly kind: 'slow'; readonly ms: number };

/** The shapes of values a tool returns. */
export type ValueKind =
  | 'text'
  | 'object'
  | 'number'
  | 'date'
  | 'unicode'
  | 'undefined'
  | 'null'
  | 'big'
  | 'bigint'
  | 'nested'
  | 'map'
  | 'set'
  | 'sparse';

export interface ToolSpec {
  readonly name: string;
  readonly schema: SchemaKind;
  readonly outcomes: readonly Outcome[];
  /** The tool's own timeout, in milliseconds. */
  readonly timeoutMs?: number;
}

/** One answer of an agent's scripted model. */
export type StepSpec =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'calls'; readonly calls: readonly CallSpec[] }
  | { readonly kind: 'fault'; readonly status: 429 | 500 | 503 | 400 }
  | { readonly kind: 'malformed' }
  | { readonly kind: 'empty' };

/** A tool call the model asks for: a tool (by index into what the agent offers) and how. */
export interface CallSpec {
  /** Index into the agent's offered tools (its own, agents as tools, handoffs); past them: a tool that does not exist. */
  readonly tool: number;
  /** Which of the schema's argument forms the model sends (0: all fields; 1: the least; 2: a wrong one). */
  readonly form: 0 | 1 | 2;
  readonly seed: number;
}

export interface AgentSpec {
  readonly name: string;
  readonly instructions: string;
  readonly tools: readonly ToolSpec[];
  /** Later agents this one hands off to. */
  readonly handoffs: readonly number[];
  /** Later agents this one asks as tools. */
  readonly asTools: readonly number[];
  readonly script: readonly StepSpec[];
  readonly modelAttempts: number;
  readonly toolRetries: number;
  /** The breakers' threshold, or off. */
  readonly breaker: number | false;
  /**
   * The breakers are shared by every run of the agent object (`circuitBreaker.scope: 'agent'`):
   * a conversation's earlier turn leaves them for the next. @defaultValue each run its own
   */
  readonly breakerShared?: boolean;
  readonly guardrail:
    'none' | 'input-warn' | 'input-block' | 'output-warn' | 'tool-warn' | 'tool-block';
  /** A fallback model that answers these when the agent's own fails for good. */
  readonly fallback?: readonly StepSpec[];
  readonly maxSteps: number;
  /** Its first tool needs a person's approval; the run pauses and is resumed with this decision. */
  readonly approval?: 'approve' | 'reject' | 'edit';
  /** It answers in a structured output (a zod object), decoded and retried. */
  readonly structured?: boolean;
  /** Its model asks for tools in ReAct text (Thought / Action / Action Input), not native calls. */
  readonly react?: boolean;
  /** Its model's temperature, a setting recorded on each call. */
  readonly temperature?: number;
}

/** A cost limit: the run's own (`maxCostUsd`), or a budget its turns share (`costBudget`). */
export interface BudgetSpec {
  readonly kind: 'run' | 'shared';
  readonly usd: number;
}

/** A whole program: its agents (the first is the entry), its input and how it runs. */
export interface Program {
  readonly agents: readonly AgentSpec[];
  readonly input: string;
  readonly mode: 'run' | 'stream';
  /** In stream mode: the reader stops after this many chunks. */
  readonly stopReadingAfter?: number;
  /** The caller aborts the run when the entry's model is asked for its n-th answer (from 1). */
  readonly abortAtCall?: number;
  /** The run's deadline, in milliseconds. */
  readonly timeoutMs?: number;
  /** The run goes on from an earlier run of the program (`history`): a second turn. */
  readonly secondTurn?: string;
  /**
   * Turns after the second, each from what the turn before left: a conversation of three to five
   * turns, whose later turns record only what their history adds (`conversation.carried`).
   */
  readonly moreTurns?: readonly string[];
  /** A user's feature beside the standard ones: each tool may be called this many times a run. */
  readonly quota?: number;
  /** A user's feature that wraps the models and scrubs the digits of tool messages they are sent. */
  readonly scrub?: boolean;
  /** The entry is a rule router over the agents: an input about an order goes to the first. */
  readonly router?: boolean;
  /** The model provider's rate limit, in requests a minute, shared by the program's runs. */
  readonly rateLimit?: number;
  /** A cost limit, the models priced. */
  readonly budget?: BudgetSpec;
  /** The entry's model answers from a cassette recorded by a run before (cache hits). */
  readonly cassette?: boolean;
  /** The agents run as steps of a workflow instead of the first being asked. */
  readonly workflow?: WorkflowSpec;
  /** The clock it is recorded on: `steppingClock()` (the default) or `virtualClock()`. */
  readonly clock?: 'virtual';
  /** A planner plans the work instead: its plans run the program's agents and two tools. */
  readonly plan?: PlanSpec;
  /** P5 forks after this many model answers (at most as many as the recording has). */
  readonly forkAfter?: number;
}

/**
 * A planned run: a planner (its own agent) writes a plan (refused first when `refusedFirst`: it
 * names a tool that does not exist); the plan gathers items, then asks the program's first agent;
 * when `failing`, its first step's tool fails and the planner plans again.
 */
export interface PlanSpec {
  readonly refusedFirst: boolean;
  readonly failing: boolean;
}

/**
 * A workflow of the program's agents: a first step gives `items` numbers; each agent step runs an
 * agent on the input (beside the first step) or on the items (after it); a `for_each` step runs a
 * tool once per item, all at once.
 */
export interface WorkflowSpec {
  readonly items: number;
  readonly agentSteps: readonly { readonly agent: number; readonly after: boolean }[];
  readonly forEach?: { readonly tool: ToolSpec; readonly retries: number };
}

const names = ['desk', 'billing', 'advisor', 'planner'] as const;
const words = ['Paris', 'refund', '注文', 'ok', 'Zürich 🚆', 'a "quoted" word', ''] as const;

const outcome: fc.Arbitrary<Outcome> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('value' as const),
      value: fc.constantFrom<ValueKind>(
        'text',
        'object',
        'number',
        'date',
        'unicode',
        'undefined',
        'null',
        'big',
        'bigint',
        'nested',
        'map',
        'set',
        'sparse',
      ),
    }),
  },
  { weight: 2, arbitrary: fc.constant({ kind: 'throw' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'throw-string' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'refuse' as const }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('slow' as const),
      ms: fc.integer({ min: 1, max: 25 }),
    }),
  },
);

const tool = (name: string): fc.Arbitrary<ToolSpec> =>
  fc.record(
    {
      name: fc.constant(name),
      schema: fc.constantFrom<SchemaKind>(
        'plain',
        'default',
        'transform',
        'optional',
        'refine',
        'preprocess',
        'union',
        'discriminated',
      ),
      outcomes: fc.array(outcome, { minLength: 1, maxLength: 3 }),
      timeoutMs: fc.integer({ min: 5, max: 40 }),
    },
    { requiredKeys: ['name', 'schema', 'outcomes'] },
  );

const call: fc.Arbitrary<CallSpec> = fc.record({
  tool: fc.integer({ min: 0, max: 5 }),
  form: fc.constantFrom<0 | 1 | 2>(0, 0, 1, 1, 2),
  seed: fc.integer({ min: 0, max: 9 }),
});

const step: fc.Arbitrary<StepSpec> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('text' as const), text: fc.constantFrom(...words) }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('calls' as const),
      calls: fc.array(call, { minLength: 1, maxLength: 3 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('fault' as const),
      status: fc.constantFrom<429 | 500 | 503 | 400>(429, 500, 503, 400),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'malformed' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'empty' as const }) },
);

const script = fc.array(step, { minLength: 1, maxLength: 6 });

/** `arbitrary`'s value one time in `oneIn`, else absent. */
const sometimes = <T>(arbitrary: fc.Arbitrary<T>, oneIn: number): fc.Arbitrary<T | undefined> =>
  fc.oneof({ weight: oneIn - 1, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary });

const agentSpec = (index: number, count: number): fc.Arbitrary<AgentSpec> => {
  const later = Array.from({ length: count - index - 1 }, (_, k) => index + 1 + k);
  const subset = later.length === 0 ? fc.constant([]) : fc.subarray(later);
  return fc
    .record(
      {
        name: fc.constant(names[index] as string),
        instructions: fc.constantFrom('Help.', 'Answer with the tools.', 'Be brief.'),
        tools: fc
          .integer({ min: 0, max: 3 })
          .chain(n =>
            fc.tuple(...Array.from({ length: n }, (_, k) => tool(`${names[index]}_t${k}`))),
          ),
        handoffs: subset,
        asTools: subset,
        script,
        modelAttempts: fc.integer({ min: 1, max: 3 }),
        toolRetries: fc.integer({ min: 0, max: 2 }),
        breaker: fc.oneof(fc.constant(false as const), fc.integer({ min: 1, max: 4 })),
        breakerShared: fc.constant(true),
        guardrail: fc.constantFrom(
          'none',
          'none',
          'none',
          'input-warn',
          'input-block',
          'output-warn',
          'tool-warn',
          'tool-block',
        ),
        fallback: script,
        maxSteps: fc.integer({ min: 2, max: 8 }),
      },
      {
        requiredKeys: [
          'name',
          'instructions',
          'tools',
          'handoffs',
          'asTools',
          'script',
          'modelAttempts',
          'toolRetries',
          'breaker',
          'guardrail',
          'maxSteps',
        ],
      },
    )
    .chain(spec =>
      fc
        .record({
          approval: sometimes(
            fc.constantFrom<'approve' | 'reject' | 'edit'>('approve', 'reject', 'edit'),
            5,
          ),
          structured: sometimes(fc.constant(true), 6),
          react: sometimes(fc.constant(true), 6),
          temperature: sometimes(fc.constantFrom(0, 0.2, 0.7), 3),
        })
        .map(({ approval, structured, react, temperature }) => ({
          ...spec,
          tools: [...spec.tools],
          ...(approval === undefined || spec.tools.length === 0 ? {} : { approval }),
          ...(structured === undefined ? {} : { structured }),
          ...(react === undefined ? {} : { react }),
          ...(temperature === undefined ? {} : { temperature }),
        })),
    );
};

/** `record` without its undefined fields. */
function definedOnly<T extends object>(record: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(record).filter(([, value]) => value !== undefined),
  ) as Partial<T>;
}

const budget: fc.Arbitrary<BudgetSpec> = fc.record({
  kind: fc.constantFrom<'run' | 'shared'>('run', 'shared'),
  usd: fc.constantFrom(0.05, 0.2, 0.5, 2),
});

/** A workflow over `count` agents: each in at most one step. */
const workflowOf = (count: number): fc.Arbitrary<WorkflowSpec> =>
  fc
    .record(
      {
        items: fc.integer({ min: 0, max: 3 }),
        agentSteps: fc
          .subarray(
            Array.from({ length: count }, (_, index) => index),
            { minLength: 1 },
          )
          .chain(agents =>
            fc.tuple(
              ...agents.map(agent => fc.record({ agent: fc.constant(agent), after: fc.boolean() })),
            ),
          ),
        forEach: fc.record({ tool: tool('each_item'), retries: fc.integer({ min: 0, max: 2 }) }),
      },
      { requiredKeys: ['items', 'agentSteps'] },
    )
    .map(spec => ({ ...spec, agentSteps: [...spec.agentSteps] }));

/** Generated programs: one to four agents, each its tools, handoffs, agents as tools and script. */
export const programArbitrary: fc.Arbitrary<Program> = fc
  .integer({ min: 1, max: 4 })
  .chain(count =>
    fc.record({
      agents: fc.tuple(...Array.from({ length: count }, (_, index) => agentSpec(index, count))),
      input: fc.constantFrom('Help me with order 7', 'Weather in Paris?', 'こんにちは'),
      mode: fc.constantFrom<'run' | 'stream'>('run', 'stream'),
      stopReadingAfter: sometimes(fc.integer({ min: 1, max: 12 }), 4),
      abortAtCall: sometimes(fc.integer({ min: 1, max: 4 }), 6),
      timeoutMs: sometimes(fc.integer({ min: 15, max: 60 }), 6),
      secondTurn: sometimes(fc.constantFrom('And then?', 'Thanks'), 4),
      moreTurns: sometimes(
        fc.array(fc.constantFrom('Why?', 'Once more', 'Thanks'), { minLength: 1, maxLength: 3 }),
        2,
      ),
      quota: sometimes(fc.integer({ min: 1, max: 3 }), 5),
      extras: fc.record({
        router: sometimes(fc.constant(true), 6),
        rateLimit: sometimes(fc.integer({ min: 1, max: 3 }), 5),
        scrub: sometimes(fc.constant(true), 4),
        budget: sometimes(budget, 5),
        cassette: sometimes(fc.constant(true), 8),
        workflow: sometimes(workflowOf(count), 5),
        clock: sometimes(fc.constant('virtual' as const), 4),
        plan: sometimes(fc.record({ refusedFirst: fc.boolean(), failing: fc.boolean() }), 8),
        forkAfter: sometimes(fc.integer({ min: 2, max: 8 }), 2),
      }),
    }),
  )
  .map(
    ({
      stopReadingAfter,
      abortAtCall,
      timeoutMs,
      secondTurn,
      moreTurns,
      quota,
      extras,
      ...program
    }) => ({
      ...program,
      agents: [...program.agents],
      ...(program.mode === 'stream' && stopReadingAfter !== undefined ? { stopReadingAfter } : {}),
      ...(abortAtCall === undefined ? {} : { abortAtCall }),
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      // A workflow or a plan runs once, from its input: a conversation's next turn is an agent's.
      ...(secondTurn === undefined || extras.workflow !== undefined || extras.plan !== undefined
        ? {}
        : { secondTurn, ...(moreTurns === undefined ? {} : { moreTurns: [...moreTurns] }) }),
      ...(quota === undefined ? {} : { quota }),
      ...definedOnly(extras.workflow === undefined ? extras : { ...extras, plan: undefined }),
    }),
  );
