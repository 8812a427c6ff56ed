/**
 * One wire-level cell in a process of its own: one framework, one N, one mode, against the chat
 * server at `baseURL`. Usage: node wire-worker.mjs <subject> <steps> <budgetMs> <baseURL> <json|stream>
 */
import { measureCell } from '../peers/measure-cell.js';
import { wireSubjects } from './subjects.js';
import { wireModeOf } from './wire-mode.js';

const [key = '', stepsText = '', budgetText = '3000', baseURL = '', mode = 'json'] =
  process.argv.slice(2);
if (!Object.hasOwn(wireSubjects, key)) throw new Error(`Unknown wire subject '${key}'.`);
const subject = wireSubjects[key as keyof typeof wireSubjects](baseURL, wireModeOf(mode));
await measureCell(`${key}-${mode}`, subject, Number(stepsText), Number(budgetText));
