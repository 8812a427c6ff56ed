import { agentsSdk } from './bridges.js';

export default agentsSdk.build();
