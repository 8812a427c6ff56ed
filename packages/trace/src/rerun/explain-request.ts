import { canonicalJson } from '@agent-trace/core/util';
import { diffWords } from 'diff';
import type { RecordedMessage, RecordedToolDefinition, RequestContext } from './request-context.js';

/** One way a model request differs from the recorded one. */
export interface RequestChange {
  /** Which part: the model, its settings, the instructions, a tool, the tool list, a message, the count of messages, or the output schema. */
  readonly part:
    | 'model'
    | 'model_settings'
    | 'instructions'
    | 'tool'
    | 'tool_list'
    | 'message'
    | 'message_count'
    | 'response_format';
  /** What changed, for people, with a word diff (`[-removed-]{+added+}`) or the changed JSON paths. */
  readonly summary: string;
  /** The tool, for `tool` changes. */
  readonly tool?: string;
  /** The 1-based message number, for `message` changes. */
  readonly message?: number;
  readonly role?: string;
}

const context = 30;

/**
 * Says how a request differs from the recorded one, part by part: the model and its settings, the
 * instructions (a word diff), each tool's name, description and schema (the changed JSON paths),
 * the first message that differs (its number, role and a word diff), the output schema. Parts are
 * compared by their recorded hashes where the trace has them, else by their recorded content.
 */
export function explainRequest(was: RequestContext, now: RequestContext): RequestChange[] {
  return [
    ...modelChanges(was, now),
    ...instructionChanges(was, now),
    ...toolChanges(was, now),
    ...messageChanges(was, now),
    ...responseFormatChanges(was, now),
  ];
}

function modelChanges(was: RequestContext, now: RequestContext): RequestChange[] {
  const changes: RequestChange[] = [];
  const [a, b] = [was.start, now.start];
  if (a.model !== b.model || a.provider !== b.provider) {
    changes.push({
      part: 'model',
      summary: `the model: '${a.model}' (${a.provider}) → '${b.model}' (${b.provider})`,
    });
  }
  const before = a.model_settings ?? {};
  const after = b.model_settings ?? {};
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  const changed = keys.filter(key => canonicalJson(before[key]) !== canonicalJson(after[key]));
  if (changed.length > 0) {
    changes.push({
      part: 'model_settings',
      summary: `the model settings: ${changed.map(key => `${key} ${shown(before[key])} → ${shown(after[key])}`).join(', ')}`,
    });
  }
  return changes;
}

function instructionChanges(was: RequestContext, now: RequestContext): RequestChange[] {
  const differs = partDiffers(
    was,
    now,
    'instructions',
    () => was.instructions !== now.instructions,
  );
  if (!differs) return [];
  return [
    {
      part: 'instructions',
      summary:
        was.instructions === undefined || now.instructions === undefined
          ? 'the instructions (the trace does not hold them)'
          : `the instructions: ${wordDiff(was.instructions, now.instructions)}`,
    },
  ];
}

function toolChanges(was: RequestContext, now: RequestContext): RequestChange[] {
  const [before, after] = [was.tools, now.tools];
  const differs = partDiffers(was, now, 'tools', () =>
    before === undefined || after === undefined
      ? false
      : canonicalJson(before) !== canonicalJson(after),
  );
  if (!differs) return [];
  if (before === undefined || after === undefined)
    return [{ part: 'tool_list', summary: 'the tool definitions (the trace does not hold them)' }];
  const changes: RequestChange[] = [];
  const byName = (tools: readonly RecordedToolDefinition[]) =>
    new Map(tools.map(tool => [tool.name, tool]));
  const [old, neu] = [byName(before), byName(after)];
  const removed = [...old.keys()].filter(name => !neu.has(name));
  const added = [...neu.keys()].filter(name => !old.has(name));
  if (removed.length > 0 || added.length > 0) {
    const parts = [
      ...removed.map(name => `'${name}' removed`),
      ...added.map(name => `'${name}' added`),
    ];
    changes.push({ part: 'tool_list', summary: `the tool list: ${parts.join(', ')}` });
  }
  for (const [name, tool] of old) {
    const other = neu.get(name);
    if (other === undefined) continue;
    if (tool.description !== other.description)
      changes.push({
        part: 'tool',
        tool: name,
        summary: `tool '${name}' description: ${wordDiff(tool.description, other.description)}`,
      });
    const paths = changedPaths(tool.parameters, other.parameters, 'parameters');
    if (paths.length > 0)
      changes.push({
        part: 'tool',
        tool: name,
        summary: `tool '${name}' schema: ${paths.slice(0, 5).join('; ')}${paths.length > 5 ? `; … ${paths.length - 5} more` : ''}`,
      });
  }
  const order = (tools: readonly RecordedToolDefinition[]) =>
    tools.map(tool => tool.name).join(', ');
  if (changes.length === 0 && order(before) !== order(after))
    changes.push({
      part: 'tool_list',
      summary: `the tool order: ${order(before)} → ${order(after)}`,
    });
  if (changes.length === 0)
    changes.push({
      part: 'tool_list',
      summary:
        'the tools offered (the same definitions, another set offered: a tool declared unavailable?)',
    });
  return changes;
}

function messageChanges(was: RequestContext, now: RequestContext): RequestChange[] {
  const [before, after] = [was.messages(), now.messages()];
  const differs = partDiffers(
    was,
    now,
    'messages',
    () => canonicalJson(before) !== canonicalJson(after),
  );
  if (!differs) return [];
  const index = before.findIndex(
    (message, at) => after[at] === undefined || canonicalJson(message) !== canonicalJson(after[at]),
  );
  if (index !== -1 && after[index] !== undefined) {
    const [a, b] = [before[index] as RecordedMessage, after[index]];
    return [
      {
        part: 'message',
        message: index + 1,
        role: b.role,
        summary: `message ${index + 1} (${describeRole(b)}): ${a.role === b.role ? wordDiff(messageText(a), messageText(b)) : `a ${a.role} message → a ${b.role} message`}`,
      },
    ];
  }
  return [
    {
      part: 'message_count',
      summary: `the messages: the recording sends ${before.length}, the rerun ${after.length}${index === -1 && after.length > before.length ? ` (message ${before.length + 1}, ${describeRole(after[before.length] as RecordedMessage)}: ${cut(messageText(after[before.length] as RecordedMessage))})` : ''}`,
    },
  ];
}

function responseFormatChanges(was: RequestContext, now: RequestContext): RequestChange[] {
  const [a, b] = [was.start.request_parts, now.start.request_parts];
  if (a === undefined || b === undefined || a.response_format === b.response_format) return [];
  return [{ part: 'response_format', summary: 'the output schema asked for in the final answer' }];
}

/** True when the part's recorded hashes differ; without hashes, what `compare` says. */
function partDiffers(
  was: RequestContext,
  now: RequestContext,
  part: 'instructions' | 'tools' | 'messages',
  compare: () => boolean,
): boolean {
  const [a, b] = [was.start.request_parts, now.start.request_parts];
  if (a !== undefined && b !== undefined) return a[part] !== b[part];
  return compare();
}

function describeRole(message: RecordedMessage): string {
  if (message.role === 'tool') return `tool result of '${message.tool}'`;
  if (message.role === 'assistant' && message.tool_calls.length > 0)
    return `assistant calling ${message.tool_calls.map(call => `'${call.tool}'`).join(', ')}`;
  return message.role;
}

function messageText(message: RecordedMessage): string {
  if (message.role !== 'assistant' || message.tool_calls.length === 0) return message.content;
  const calls = message.tool_calls.map(call => `${call.tool}(${call.arguments})`).join(' ');
  return message.content === '' ? calls : `${message.content} ${calls}`;
}

/** A word diff, `[-removed-]{+added+}`, with long unchanged stretches cut to their ends. */
export function wordDiff(before: string, after: string): string {
  return diffWords(before, after)
    .map(part => {
      if (part.added) return `{+${part.value}+}`;
      if (part.removed) return `[-${part.value}-]`;
      // What stayed is context, on one line.
      const kept = part.value.replace(/\s+/g, ' ');
      return kept.length <= 2 * context
        ? kept
        : `${kept.slice(0, context)}…${kept.slice(-context)}`;
    })
    .join('');
}

/** The JSON paths where two values differ, with both values. */
function changedPaths(before: unknown, after: unknown, path: string): string[] {
  if (canonicalJson(before) === canonicalJson(after)) return [];
  const objects =
    typeof before === 'object' &&
    before !== null &&
    typeof after === 'object' &&
    after !== null &&
    Array.isArray(before) === Array.isArray(after);
  if (!objects) return [`${path}: ${shown(before)} → ${shown(after)}`];
  const [a, b] = [before as Record<string, unknown>, after as Record<string, unknown>];
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  return keys.flatMap(key =>
    changedPaths(a[key], b[key], Array.isArray(before) ? `${path}[${key}]` : `${path}.${key}`),
  );
}

function shown(value: unknown): string {
  return value === undefined ? '(none)' : cut(canonicalJson(value));
}

function cut(text: string, length = 80): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}
