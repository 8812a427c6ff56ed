/**
 * The support desk with a planted change to one policy: refunds granted at once only up to $50
 * (today: $100). `agent-trace rerun traces/support-desk.jsonl --agent
 * examples/support-desk/planted.ts` names the turn of each conversation that first asked for a
 * refund, and no other conversation.
 */
import { deskFeatures, supportDesk } from './desk.js';
import { plantedPolicies } from './policies.js';

export default supportDesk();
export const runOptions = { features: deskFeatures(plantedPolicies) };
