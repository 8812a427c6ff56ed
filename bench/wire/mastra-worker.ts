/**
 * One Mastra cell under Node 22, against the chat server at `baseURL`.
 * Usage (the wire worker's): node mastra-worker.mjs mastra <steps> <budgetMs> <baseURL> <json|stream>
 */
import { measureCell } from '../peers/measure-cell.js';
import { mastraWire } from './mastra.js';
import { wireModeOf } from './wire-mode.js';

const [key = '', stepsText = '', budgetText = '3000', baseURL = '', mode = 'json'] =
  process.argv.slice(2);
if (key !== 'mastra') throw new Error(`The Mastra worker runs 'mastra', not '${key}'.`);
const wireMode = wireModeOf(mode);
await measureCell(
  `mastra-${mode}`,
  mastraWire(baseURL, wireMode),
  Number(stepsText),
  Number(budgetText),
);
