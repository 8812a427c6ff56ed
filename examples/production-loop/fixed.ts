/** The desk with the fix: `agent-trace regress traces --agent examples/production-loop/fixed.ts`. */
import { shippingDesk } from './desk.js';

export default shippingDesk('v2');
