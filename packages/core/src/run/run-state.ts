import type { AnyAgent } from '../agent/agent.js';
import type { RunAgent } from './agent-outcome.js';
import type { GuardrailFinding } from '../guardrail/run-guardrails.js';
import type { CircuitBreakers } from '../resilience/circuit-breaker.js';
import type { Usage } from '../protocol/usage.js';
import type { CostTally } from '../cost/cost.js';
import type { PriceTable } from '../cost/prices.js';
import type { CostBudget } from '../cost/budget.js';
import type { RateLimits } from '../rate-limit/rate-limits.js';
import type { Redactor } from '../redaction/redactor.js';
import type { RunOverrides } from './run-options.js';
import type { RunTracer } from '../trace/run-tracer.js';
import type { Clock } from '../util/clock.js';
import type { ChunkSequence } from './chunk-sequence.js';
import type { HandoffRecord, StepResult, ToolCallRecord } from '../protocol/records.js';

/** What one run shares between the agents and phases that take part in it. */
export interface RunState {
  readonly tracer: RunTracer;
  readonly chunks: ChunkSequence;
  readonly signal: AbortSignal | undefined;
  readonly streaming: boolean;
  readonly clock: Clock;
  /** A number in [0, 1) for retry jitter. */
  readonly random: () => number;
  readonly steps: StepResult[];
  readonly toolCalls: ToolCallRecord[];
  readonly handoffs: HandoffRecord[];
  /** Guardrail verdicts other than `allow`, in order. */
  readonly guardrailFindings: GuardrailFinding[];
  readonly overrides: RunOverrides;
  readonly redactor: Redactor | undefined;
  /** Runs an agent's turn: how handoffs and delegates start their target. */
  readonly runAgent: RunAgent;
  /** The circuit breakers of the agents whose breakers are scoped to the run. */
  readonly runBreakers: WeakMap<AnyAgent, CircuitBreakers>;
  /** The agents whose tool definitions the trace holds already (on their first `agent_start`). */
  readonly describedAgents: Set<string>;
  /** Totals shared by every agent of the run (delegates included, whose state is a copy). */
  readonly totals: { usage: Usage; readonly cost: CostTally };
  /** What model calls cost: the known prices, with the run's own over them. */
  readonly prices: PriceTable;
  /** The cost limits the run keeps: its own `maxCostUsd`, and a shared budget. */
  readonly budgets: readonly BudgetLimit[];
  /** The budget shared with other runs, told each priced call's cost. */
  readonly sharedBudget: CostBudget | undefined;
  /** The providers' rate limits shared with other runs. */
  readonly rateLimits: RateLimits | undefined;
}

/** A cost limit a run keeps: how much may be spent, and how much is. */
export interface BudgetLimit {
  /** `maxCostUsd`, or the shared budget's name. */
  readonly name: string;
  readonly limitUsd: number;
  spentUsd(): number;
}
