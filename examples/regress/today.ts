/** Today's desk, the refunds prompt changed to look orders up first: `agent-trace regress traces/ --agent examples/regress/today.ts`. */
import { continuationModel } from './continuation.js';
import { supportDesk } from './desk.js';

export default supportDesk('v2');
/** Goes on from a divergence: the model's recorded answers (`continuation.ts`). */
export const continueWith = continuationModel();
