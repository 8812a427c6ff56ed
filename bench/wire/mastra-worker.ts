/**
 * One Mastra cell under Node 22, against the chat server at `baseURL`.
 * Usage: node mastra-worker.mjs <steps> <budgetMs> <baseURL> <json|stream>
 */
import { measureCell } from '../peers/measure-cell.js';
import { mastraWire } from './mastra.js';
import { wireModeOf } from './wire-mode.js';

const [stepsText = '', budgetText = '3000', baseURL = '', mode = 'json'] = process.argv.slice(2);
const wireMode = wireModeOf(mode);
await measureCell(
  `mastra-${mode}`,
  mastraWire(baseURL, wireMode),
  Number(stepsText),
  Number(budgetText),
);
