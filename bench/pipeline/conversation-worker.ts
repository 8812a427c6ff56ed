/**
 * One length of the conversation bench in a process of its own, so a length that runs away is
 * capped alone. Usage: node conversation-worker.mjs <turns> <rounds>; prints one JSON line.
 */
import { measureConversationTurns } from '../conversation-turns.js';

const [turns = '100', rounds = '5'] = process.argv.slice(2);
process.stdout.write(
  `${JSON.stringify(await measureConversationTurns(Number(turns), Number(rounds)))}\n`,
);
