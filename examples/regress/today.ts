/** Today's desk, the refunds prompt changed to look orders up first: `agent-trace regress traces/ --agent examples/regress/today.ts`. */
import { deskModel, supportDesk } from './desk.js';

export default supportDesk('v2');
/** Goes on from a divergence: the desk's own scripted model (a live one, or a cassette's, in use). */
export const continueWith = deskModel();
