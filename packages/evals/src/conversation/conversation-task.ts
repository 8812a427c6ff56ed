import type { Agent } from '@agent-trace/core';
import type { EvalCase } from '../scorer.js';
import type { TaskContext } from '../define-eval.js';
import { converse, type ConverseResult } from './converse.js';
import type { SimulatedUser } from './simulated-user.js';

/**
 * An eval task that holds a conversation: each case's input picks its simulated user (a persona
 * and a goal, or a script), the case's agent converses with it under the case's session, and the
 * output is what `converse` gives, which the conversation scorers read.
 */
export function conversationTask<Input, Expected = unknown, Output = string>(
  agent: Agent<Output>,
  userFor: (input: Input, evalCase: EvalCase<Input, Expected>) => SimulatedUser,
  { maxTurns = 8 }: { readonly maxTurns?: number } = {},
): (input: Input, context: TaskContext<Input, Expected>) => Promise<ConverseResult<Output>> {
  return (input, context) => {
    const { session, history: _history, conversation: _turn, ...runOptions } = context.runOptions;
    return converse(agent, userFor(input, context.case), {
      ...runOptions,
      ...(session === undefined ? {} : { id: session }),
      maxTurns,
    });
  };
}
