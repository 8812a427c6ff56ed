import type { AnyAgent } from '../../agent/agent.js';
import type { Message } from '../../protocol/message.js';
import type { ModelRequest, ToolDefinition } from '../../model/language-model.js';
import type { OpenSpan } from '../../trace/run-tracer.js';
import type { CostTally } from '../../protocol/cost-tally.js';
import type { TextSplitter } from './text-splitter.js';
import type { TurnContext } from '../seam/feature-context.js';
import type { ModelCallRequest } from '../seam/feature-hooks.js';
import type { Hooks } from '../seam/seam.js';
import type { Conversation } from './conversation.js';
import type { RequestParts } from './llm-event-fields.js';

/** What one model call of the loop sends. */
export interface ModelCallInput {
  readonly agent: AnyAgent;
  /** 1-based model call number of the agent. */
  readonly step: number;
  readonly conversation: Conversation;
  /** What the model is shown: the whole conversation, or its memory window. */
  readonly messages: readonly Message[];
  /** What the model is told: the agent's instructions (in ReAct mode, with tools and format). */
  readonly instructions: string;
  readonly tools: readonly ToolDefinition[];
  /** Sent where the provider takes them (ReAct mode's `\nObservation:`). */
  readonly stopSequences?: readonly string[] | undefined;
  /** Splits streamed text into ReAct's parts; without it, all text is answer (`delta`). */
  readonly splitter?: (() => TextSplitter) | undefined;
  /** The calling agent's cost tally; each answered call's cost is counted into it and the run's. */
  readonly cost: CostTally;
  /** A hash of the whole request (instructions, tools, messages). */
  readonly requestHash: string;
  /** A hash of each part of the request, when the run is traced. */
  readonly requestParts?: RequestParts;
  readonly agentSpan: OpenSpan;
  /** The hooks of the run's features that take part in the agent's turns. */
  readonly hooks: Hooks;
  /** What those hooks see of the agent's turn. */
  readonly at: TurnContext;
  /**
   * The request the features' transforms made of the loop's, when they changed it: what is sent,
   * and what `llm_start` records.
   */
  readonly transformed?: ModelCallRequest;
  /** Set in the final-output phase of an agent with an output schema. */
  readonly responseFormat?: ModelRequest['responseFormat'];
}
