import { aiSdkAgent } from '@agent-trace/ai-sdk';
import { desk } from './ai-sdk-desk.js';

export default aiSdkAgent(desk('stream'));
