import type { LanguageModel, ToolDefinition } from '@agent-trace/core';
import { defined } from '@agent-trace/core/util';
import type { CallbackManagerForLLMRun } from '@langchain/core/callbacks/manager';
import {
  BaseChatModel,
  type BaseChatModelCallOptions,
  type BindToolsInput,
  type LangSmithParams,
} from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { conversationOf, langchainToolCalls, toolDefinitionsOf } from './messages.js';

/** Options of {@link langchainModel}. */
export interface LangchainModelOptions {
  /**
   * The agent name the model's requests carry (what a FakeLLM responder or its messages show):
   * LangChain's model calls do not say which agent calls. @defaultValue 'langgraph'
   */
  readonly agent?: string;
}

/**
 * An agent-trace model as a LangChain chat model: it takes tools (`bindTools`, as the prebuilt
 * ReAct agent binds them) and answers with tool calls, so a LangGraph graph runs offline from a
 * `fakeLLM` script or a cassette-recorded model. Strictness is the script's own: a call past its
 * last step fails the run, and steps left over fail the test (with the testing package's Vitest
 * setup).
 */
export class AgentTraceChatModel extends BaseChatModel {
  readonly #model: LanguageModel;
  readonly #agent: string;
  /** The bound tools, in OpenAI's function format (what LangChain's tracers read). */
  readonly #tools: readonly Record<string, unknown>[];
  readonly #definitions: readonly ToolDefinition[];

  constructor(
    model: LanguageModel,
    options: LangchainModelOptions = {},
    tools: readonly Record<string, unknown>[] = [],
  ) {
    super({});
    this.#model = model;
    this.#agent = options.agent ?? 'langgraph';
    this.#tools = tools;
    this.#definitions = toolDefinitionsOf(tools);
  }

  _llmType(): string {
    return 'agent-trace';
  }

  /** The same model with `tools` offered to it. */
  override bindTools(tools: BindToolsInput[]): AgentTraceChatModel {
    return new AgentTraceChatModel(
      this.#model,
      { agent: this.#agent },
      tools.map(tool => convertToOpenAITool(tool) as unknown as Record<string, unknown>),
    );
  }

  /** What a callback handler is told of the call: the model and the tools offered. */
  override invocationParams(): Record<string, unknown> {
    return {
      model: this.#model.modelId,
      ...(this.#tools.length === 0 ? {} : { tools: this.#tools }),
    };
  }

  override getLsParams(): LangSmithParams {
    return {
      ls_provider: this.#model.provider,
      ls_model_name: this.#model.modelId,
      ls_model_type: 'chat',
    };
  }

  async _generate(
    messages: BaseMessage[],
    options: this['ParsedCallOptions'],
    _runManager?: CallbackManagerForLLMRun,
  ): Promise<ChatResult> {
    const { instructions, messages: conversation } = conversationOf(messages);
    const answer = await this.#model.generate({
      instructions,
      messages: conversation,
      tools: this.#definitions,
      agentName: this.#agent,
      ...defined('abortSignal', (options as BaseChatModelCallOptions).signal),
    });
    const { promptTokens, completionTokens } = answer.usage;
    const message = new AIMessage({
      content: answer.text,
      tool_calls: langchainToolCalls(answer.toolCalls),
      usage_metadata: {
        input_tokens: promptTokens,
        output_tokens: completionTokens,
        total_tokens: promptTokens + completionTokens,
      },
      response_metadata: { finish_reason: answer.finishReason, model_name: this.#model.modelId },
    });
    return { generations: [{ message, text: answer.text }] };
  }
}

/**
 * An agent-trace model (a `fakeLLM` script, a cassette-recorded model, a provider's) as a
 * LangChain chat model, for LangGraph graphs and LangChain agents.
 *
 * @example
 * ```ts
 * const agent = createReactAgent({ llm: langchainModel(fakeLLM([...])), tools: [weather] });
 * ```
 */
export function langchainModel(
  model: LanguageModel,
  options: LangchainModelOptions = {},
): AgentTraceChatModel {
  return new AgentTraceChatModel(model, options);
}
