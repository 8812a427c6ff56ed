import type { PendingCall, SettledCall, ToolPhase } from './tool-phase.js';

/**
 * What the model reads of each result after the features' transforms, in the order asked; each
 * change is a `transform` event under the agent's span, naming the call.
 */
export async function transformedResults(
  { hooks, at }: ToolPhase,
  inOrder: readonly PendingCall[],
  finished: ReadonlyMap<PendingCall, SettledCall>,
): Promise<ReadonlyMap<PendingCall, string>> {
  const read = new Map<PendingCall, string>();
  for (const pending of inOrder) {
    const { outcome } = finished.get(pending) as SettledCall;
    const view = { call: pending.call, content: outcome.content, isError: !outcome.ok };
    read.set(pending, await hooks.transforms.toolResult(at.with(view), at.transformed));
  }
  return read;
}
