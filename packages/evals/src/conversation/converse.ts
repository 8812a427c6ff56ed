import { addUsage, zeroUsage } from '@agent-trace/core/util';
import type { Agent, RunResult, StopReason, Usage } from '@agent-trace/core';
import { conversation, type ConversationOptions } from '@agent-trace/core/conversation';
import type { SimulatedUser, TranscriptEntry } from './simulated-user.js';

/** Options of {@link converse}: the conversation's options, and how long it may go on. */
export interface ConverseOptions extends ConversationOptions {
  /** The most turns the conversation takes. @defaultValue 8 */
  readonly maxTurns?: number;
}

/** Why a conversation with a simulated user ended. */
export type ConversationStop = 'goal_reached' | 'user_gave_up' | 'max_turns' | 'agent_error';

/** A conversation held with a simulated user. */
export interface ConverseResult<Output = string> {
  /** The conversation's id: the session of its runs. */
  readonly id: string;
  /** Who said what, turn by turn. */
  readonly transcript: readonly TranscriptEntry[];
  /** The agent's turns' results, in order. */
  readonly turns: readonly RunResult<Output>[];
  readonly stopReason: ConversationStop;
  /** For `agent_error`: how the agent's last turn stopped. */
  readonly agentStop?: StopReason;
  /** What the agent's turns used, the user's replies apart. */
  readonly usage: Usage;
  /** What the simulated user's model used: reported beside the agent's, never in it. */
  readonly userUsage: Usage;
}

/**
 * Holds a conversation between `agent` and a simulated `user`: the user speaks first, the agent
 * answers (each answer a turn of `conversation()`), until the user's goal is reached (its
 * `stopWhen`, or the user says so), the user gives up, the agent's turn fails, or `maxTurns`.
 * Every run goes into `options.trace`; with a FakeLLM agent and user the transcript is the same
 * every time.
 */
export async function converse<Output = string>(
  agent: Agent<Output>,
  user: SimulatedUser,
  options: ConverseOptions = {},
): Promise<ConverseResult<Output>> {
  const { maxTurns = 8, ...conversationOptions } = options;
  const chat = conversation(agent, conversationOptions);
  const { id: _id, from: _from, ...runOptions } = conversationOptions;
  const transcript: TranscriptEntry[] = [];
  let usage = zeroUsage;
  let userUsage = zeroUsage;
  const ended = (stopReason: ConversationStop, agentStop?: StopReason): ConverseResult<Output> => ({
    id: chat.id,
    transcript,
    turns: chat.turns,
    stopReason,
    ...(agentStop === undefined ? {} : { agentStop }),
    usage,
    userUsage,
  });
  const before = chat.turnCount;
  for (let turn = before + 1; turn <= before + maxTurns; turn++) {
    if (user.goalReached?.(transcript) === true) return ended('goal_reached');
    const reply = await user.reply(transcript, { conversationId: chat.id, turn, runOptions });
    if (reply.usage !== undefined) userUsage = addUsage(userUsage, reply.usage);
    if ('stop' in reply) return ended(reply.stop === 'gave_up' ? 'user_gave_up' : 'goal_reached');
    transcript.push({ turn, role: 'user', text: reply.message });
    const result = await chat.send(reply.message);
    usage = addUsage(usage, result.usage);
    transcript.push({ turn, role: 'agent', text: result.text });
    if (result.stopReason !== 'completed') return ended('agent_error', result.stopReason);
  }
  return user.goalReached?.(transcript) === true ? ended('goal_reached') : ended('max_turns');
}
