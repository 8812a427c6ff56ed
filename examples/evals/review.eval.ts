/** The document-review eval with the desk's current prompt: `agent-trace eval examples/evals/review.eval.ts`. */
import { reviewPrompt } from './prompts.js';
import { reviewEval } from './review-eval.js';

export default reviewEval(reviewPrompt);
