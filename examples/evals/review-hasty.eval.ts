/**
 * The same eval after a prompt "clean-up" that dropped the references step: the planted regression
 * `agent-trace eval compare` catches, naming the drafts that lost their references.
 */
import { hastyPrompt } from './prompts.js';
import { reviewEval } from './review-eval.js';

export default reviewEval(hastyPrompt);
