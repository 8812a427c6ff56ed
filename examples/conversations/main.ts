/**
 * A conversation with the order desk, three turns, traced to JSONL:
 *
 *   pnpm conversation-example [--trace <file>]
 *
 * Then `agent-trace replay <file>` shows each turn as a run of the conversation, and
 * `agent-trace rerun <file> --agent examples/conversations/desk.ts` reruns it turn by turn.
 */
import { conversation } from '@agent-trace/core/conversation';
import { jsonlSink } from '@agent-trace/trace';
import { customerTurns, orderDesk } from './desk.js';

const at = process.argv.indexOf('--trace');
const file =
  at === -1 ? 'traces/conversation.jsonl' : (process.argv[at + 1] ?? 'traces/conversation.jsonl');
const trace = jsonlSink(file);
const chat = conversation(orderDesk(), { trace });
for (const message of customerTurns) {
  const turn = await chat.send(message);
  process.stdout.write(`customer: ${message}\ndesk:     ${turn.output}\n`);
}
await trace.close();
process.stdout.write(`Trace: ${file} (conversation ${chat.id}, ${chat.turnCount} turns)\n`);
