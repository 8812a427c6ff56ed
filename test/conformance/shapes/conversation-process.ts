/**
 * One process of the conversation row: `first <trace>` takes the first two turns; `then <trace>`
 * goes on with the conversation from the trace and takes the third.
 */
import { jsonlSink, conversationFromTrace } from '@agent-trace/trace';
import { build, customerTurns, takeTurns } from './conversation.js';

const [step, trace] = process.argv.slice(2) as [string, string];
if (step === 'first') await takeTurns(trace, customerTurns.slice(0, 2));
else {
  const sink = jsonlSink(trace);
  const chat = await conversationFromTrace(trace, build(), { trace: sink });
  const last = await chat.send(customerTurns[2]);
  await sink.close();
  if (last.stopReason !== 'completed' || chat.turnCount !== 3)
    throw new Error(`expected a completed third turn, got ${last.stopReason} at ${chat.turnCount}`);
}
