import type { AnyAgent, LanguageModel, RunOptions, RunResult } from '@agent-trace/core';
import { memorySink } from '@agent-trace/trace';
import { converse, type ConversationStop } from '../conversation/converse.js';
import {
  simulatedUser,
  type SimulatedUser,
  type TranscriptEntry,
} from '../conversation/simulated-user.js';

/** How a diverged conversation went on after its continued turn, a simulated user for the person. */
export interface ContinuedConversation {
  /** The turns taken after the diverged one (at most as many as the recording had). */
  readonly turns: number;
  readonly stopReason: ConversationStop;
  /** Who said what in those turns. */
  readonly transcript: readonly TranscriptEntry[];
  /** Live model calls (the agent's and the simulated user's), and what they cost. */
  readonly modelCalls: number;
  readonly costUsd: number;
}

/** What a conversation's continuation is given. */
export interface ContinuationSetup {
  readonly target: AnyAgent;
  /** The diverged turn, and how many of the agent's turns the recorded conversation had. */
  readonly turn: { readonly conversation: string; readonly turn: number; readonly turns: number };
  /** The continued turn's result: the conversation goes on from its messages. */
  readonly continued: RunResult<unknown>;
  readonly continueWith: LanguageModel | ((agent: AnyAgent) => LanguageModel);
  /** Plays the person from the next turn on. */
  readonly userModel: LanguageModel;
  readonly run: Omit<RunOptions, 'overrides' | 'trace'> | undefined;
}

/**
 * Goes on with a diverged conversation after its continued turn: the agent answered by
 * `continueWith`, the person played by `userModel` (told what they said so far), for as many turns
 * as the recording had after the diverged one. Undefined when the recording had none after it.
 */
export async function continueConversation(
  setup: ContinuationSetup,
): Promise<ContinuedConversation | undefined> {
  const { turn, continued } = setup;
  const left = turn.turns - turn.turn;
  if (left <= 0) return undefined;
  const trace = memorySink();
  const { continueWith } = setup;
  const answering = (agent: AnyAgent) =>
    typeof continueWith === 'function' ? continueWith(agent) : continueWith;
  const held = await converse(setup.target, person(setup), {
    ...setup.run,
    id: turn.conversation,
    from: { turns: turn.turn, messages: continued.messages },
    maxTurns: left,
    trace,
    overrides: { model: agent => answering(agent) },
  });
  const calls = trace.events.filter(event => event.event === 'llm_end');
  return {
    turns: held.turns.length,
    stopReason: held.stopReason,
    transcript: held.transcript,
    modelCalls: calls.length,
    costUsd: calls.reduce(
      (sum, event) => sum + (event.event === 'llm_end' ? (event.cost_usd ?? 0) : 0),
      0,
    ),
  };
}

/**
 * The person, played by the user model: told what they said so far. Its runs take the
 * conversation's options without the agent's model override, so the user model plays them.
 */
function person(setup: ContinuationSetup): SimulatedUser {
  const said = setup.continued.messages.flatMap(message =>
    message.role === 'user' ? [message.content] : [],
  );
  const played = simulatedUser({
    name: 'person',
    persona: `The person of this conversation. What you said so far, in order:\n${said.map(text => `- ${text}`).join('\n')}`,
    goal: 'What your first messages asked for.',
    model: setup.userModel,
  });
  return {
    name: played.name,
    reply: (transcript, context) => {
      const { overrides: _agents, ...runOptions } = context.runOptions as RunOptions;
      return played.reply(transcript, { ...context, runOptions });
    },
  };
}
