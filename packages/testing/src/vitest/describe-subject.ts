import type { Subject } from './subject.js';

const cut = (text: string, length = 70): string =>
  text.length > length ? `${text.slice(0, length - 1)}…` : text;
const show = (value: unknown): string => cut(JSON.stringify(value) ?? String(value));

/**
 * The part of a subject a failure message needs, as a small tree: the tool calls of each agent
 * in order (with result or error), the handoffs, the stop reason. Never a JSON dump.
 */
export function describeSubject(subject: Subject): string {
  const lines: string[] = [];
  const byAgent = new Map<string, string[]>();
  for (const call of subject.toolCalls) {
    const outcome = call.error === undefined ? `→ ${show(call.result)}` : `✗ ${cut(call.error)}`;
    const list = byAgent.get(call.agent) ?? [];
    const attempt = call.attempt > 1 ? ` (attempt ${call.attempt})` : '';
    list.push(`${call.name} ${show(call.args)}${attempt} ${outcome}`);
    byAgent.set(call.agent, list);
  }
  if (byAgent.size === 0) lines.push('  (no tool calls)');
  for (const [agent, calls] of byAgent) {
    lines.push(`  ${agent}`);
    calls.forEach((call, index) =>
      lines.push(`    ${index === calls.length - 1 ? '└─' : '├─'} ${call}`),
    );
  }
  for (const handoff of subject.handoffs) {
    lines.push(
      `  handoff ${handoff.from} → ${handoff.to} (depth ${handoff.depth}, ${handoff.mode})`,
    );
  }
  if (subject.stopReason !== undefined) lines.push(`  stop: ${subject.stopReason}`);
  return `The ${subject.kind} has:\n${lines.join('\n')}`;
}
