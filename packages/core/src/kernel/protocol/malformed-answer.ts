/**
 * What was wrong with an answer of an agent in ReAct mode that is not a ReAct step: no Action
 * (and no Final Answer), an Action without an Action Input, a tool that does not exist, an
 * Action Input that is not JSON, an Action and a Final Answer together, or an Observation the
 * model wrote itself.
 */
export type MalformedAnswerProblem =
  | 'no_action'
  | 'no_action_input'
  | 'unknown_tool'
  | 'invalid_json'
  | 'action_and_final_answer'
  | 'invented_observation';

/** Every {@link MalformedAnswerProblem}. */
export const malformedAnswerProblems: readonly MalformedAnswerProblem[] = [
  'no_action',
  'no_action_input',
  'unknown_tool',
  'invalid_json',
  'action_and_final_answer',
  'invented_observation',
];
