import { checkShape } from './harness/check-shape.js';
import { mcpGone, mcpHttp, mcpStdio } from './shapes/mcp.js';

for (const shape of [mcpStdio, mcpHttp, mcpGone]) checkShape(shape);
