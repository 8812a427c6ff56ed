import {
  agent,
  run,
  type LanguageModel,
  type Message,
  type RunOptions,
  type Usage,
} from '@agent-trace/core';

/** A line of a conversation's transcript: who said it, at which turn. */
export interface TranscriptEntry {
  readonly turn: number;
  readonly role: 'user' | 'agent';
  readonly text: string;
}

/** Why a simulated user ends the conversation. */
export type UserStop = 'goal_reached' | 'gave_up';

/** A simulated user's answer: the next message, or why they stop. */
export type UserReply =
  | { readonly message: string; readonly usage?: Usage }
  | { readonly stop: UserStop; readonly usage?: Usage };

/** Where a simulated user replies: the conversation, the turn, and the runs' options. */
export interface UserContext {
  readonly conversationId: string;
  /** The turn the reply opens (1-based). */
  readonly turn: number;
  /** The options the conversation's runs have (its trace, clock, …). */
  readonly runOptions: Omit<RunOptions, 'history' | 'session' | 'conversation'>;
}

/** A person the conversation is held with, played by a model or a script. */
export interface SimulatedUser {
  readonly name: string;
  /** What the user wants; the transcript reaching it ends the conversation (`stopWhen`). */
  readonly goalReached?: (transcript: readonly TranscriptEntry[]) => boolean;
  /** The user's next message after `transcript`, or why they stop. */
  reply(transcript: readonly TranscriptEntry[], context: UserContext): Promise<UserReply>;
}

/** Options of {@link simulatedUser}. */
export interface SimulatedUserOptions {
  /** The user's name, in the trace (its model is agent `user-<name>`) and reports. @defaultValue 'user' */
  readonly name?: string;
  /** Who the user is, for a model that plays them. */
  readonly persona?: string;
  /** What the user came for, for a model that plays them. */
  readonly goal?: string;
  /** A model that plays the user (a FakeLLM script, a cassette, a live model). */
  readonly model?: LanguageModel;
  /**
   * A script instead of a model: the messages in order, or a function of the agent's last reply
   * and the turn. After the last message (or an undefined answer) the user stops: with the goal
   * reached, or, when `stopWhen` is given and did not say it was, having given up.
   */
  readonly script?:
    readonly string[] | ((lastReply: string | undefined, turn: number) => string | undefined);
  /** The goal reached: a predicate over the transcript, asked after each agent reply. */
  readonly stopWhen?: (transcript: readonly TranscriptEntry[]) => boolean;
}

/** What a model that plays the user is told: the persona, the goal, and how to stop. */
export function userInstructions(persona: string, goal: string): string {
  return [
    `You are a person talking to an assistant. ${persona}`,
    `What you want: ${goal}`,
    'Write only your next message to the assistant, in your own words, one or two sentences.',
    `When you have what you wanted, answer exactly ${goalReachedWord}.`,
    `When you give up, answer exactly ${gaveUpWord}.`,
  ].join('\n');
}

const goalReachedWord = 'DONE';
const gaveUpWord = 'GIVE UP';

/**
 * A simulated user for `converse`: played by `model` (told `userInstructions(persona, goal)`,
 * shown the conversation with its roles turned round), or by `script`. A model's replies are runs
 * of their own in the conversation's trace, marked as the user's (`run_start.conversation.role`),
 * and never counted in the agent's usage or cost.
 */
export function simulatedUser(options: SimulatedUserOptions): SimulatedUser {
  const { name = 'user', script, model, stopWhen } = options;
  if ((script === undefined) === (model === undefined))
    throw new Error(
      `simulatedUser '${name}' needs a model to play it or a script, and only one of them.`,
    );
  const goalReached = stopWhen === undefined ? {} : { goalReached: stopWhen };
  if (script !== undefined)
    return {
      name,
      ...goalReached,
      // With a goal to reach, a script that ran out without reaching it gave up.
      reply: scriptedReply(script, stopWhen === undefined ? 'goal_reached' : 'gave_up'),
    };
  const player = agent({
    name: `user-${name}`,
    model: model as LanguageModel,
    instructions: userInstructions(options.persona ?? '', options.goal ?? ''),
  });
  return {
    name,
    ...goalReached,
    async reply(transcript, { conversationId, turn, runOptions }) {
      const last = transcript.at(-1);
      const result = await run(player, last?.text ?? opening, {
        ...runOptions,
        ...(last === undefined ? {} : { history: turnedRound(transcript.slice(0, -1)) }),
        session: conversationId,
        conversation: { id: conversationId, turn, role: 'user' },
      });
      const text = result.text.trim();
      if (text === goalReachedWord) return { stop: 'goal_reached', usage: result.usage };
      if (text === gaveUpWord) return { stop: 'gave_up', usage: result.usage };
      return { message: text, usage: result.usage };
    },
  };
}

/** The replies of a script: its messages in order, or its function's answers. */
function scriptedReply(
  script: NonNullable<SimulatedUserOptions['script']>,
  ending: UserStop,
): SimulatedUser['reply'] {
  return (transcript, { turn }) => {
    const lastReply = transcript.findLast(entry => entry.role === 'agent')?.text;
    const message = typeof script === 'function' ? script(lastReply, turn) : script[turn - 1];
    return Promise.resolve(message === undefined ? { stop: ending } : { message });
  };
}

/** What the user's model is asked first: it opens the conversation. */
const opening = 'Start the conversation.';

/**
 * The transcript as the user's model sees it, after the opening ask: the agent's lines are its
 * input, the user's its own answers.
 */
function turnedRound(transcript: readonly TranscriptEntry[]): Message[] {
  return [
    { role: 'user', content: opening },
    ...transcript.map((entry): Message =>
      entry.role === 'agent'
        ? { role: 'user', content: entry.text }
        : { role: 'assistant', content: entry.text, toolCalls: [] },
    ),
  ];
}
