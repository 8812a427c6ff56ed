import type { ModelRequest } from '../../model/language-model.js';
import type { TraceMessage } from '../../protocol/trace-event.js';
import { toTraceMessage } from '../../protocol/trace-message.js';
import { hashString } from '../../util/hash.js';
import type { Writable } from '../../util/writable.js';
import type { RequestParts } from './llm-event-fields.js';
import type { ModelCallInput } from './model-call-input.js';

/** The parts of a request `llm_start` records: what a wrapper sent, or a transform made. */
export type SentParts = Pick<ModelRequest, 'instructions' | 'messages' | 'tools' | 'stopSequences'>;

/** What `llm_start` records of a request: its messages new to the trace, and its hashes. */
export interface SentRequest {
  readonly messages: TraceMessage[];
  /** Set when a feature rewrote messages the trace already holds: how many of them the request keeps. */
  readonly kept?: number;
  /** Set when the messages follow the run's history, which the trace holds: how many of it. */
  readonly fromHistory?: number;
  readonly messageCount: number;
  readonly requestHash: string;
  readonly requestParts: RequestParts | undefined;
}

/**
 * What `llm_start` records of a model call: the request the loop made, or the one the model was
 * sent when a feature's wrapper changed it. A changed request is recorded against what the trace
 * already holds of the conversation: the messages it keeps, then the ones that differ; its hashes
 * are taken over what was sent, so a rerun whose wrapper changes it otherwise diverges there.
 */
export function sentRequest(
  input: ModelCallInput,
  recording: boolean,
  sent: SentParts | undefined,
): SentRequest {
  const traced = recording && sent !== undefined ? changedMessages(input, sent) : undefined;
  if (sent === undefined || traced === undefined) {
    // Once a feature rewrote the conversation, the trace holds what was sent: an attempt never
    // sent (a breaker refused it) adds nothing to it.
    const records = recording && !(sent === undefined && input.conversation.rewritten);
    const fromHistory = records ? input.conversation.takeFromHistory() : undefined;
    return {
      messages: records ? input.conversation.takeUnsent() : [],
      ...(fromHistory === undefined ? {} : { fromHistory }),
      messageCount: input.messages.length,
      requestHash: input.requestHash,
      requestParts: input.requestParts,
    };
  }
  const fromHistory = input.conversation.takeFromHistory();
  const { messages, kept } = input.conversation.takeSent(traced);
  const messagesHash = input.conversation.windowMessagesHash(sent.messages);
  const preamble = [sent.instructions, sent.tools, sent.stopSequences ?? null];
  const request: Writable<SentRequest> = {
    messages,
    messageCount: sent.messages.length,
    requestHash: hashString(`${hashString(JSON.stringify(preamble))}\n${messagesHash}`),
    requestParts: rewrittenParts(input, sent, messagesHash),
  };
  if (kept !== undefined) request.kept = kept;
  if (fromHistory !== undefined) request.fromHistory = fromHistory;
  return request;
}

/**
 * The messages of `sent` as the trace records them, when they differ from the loop's request (or a
 * feature rewrote an earlier request of the conversation, so the trace follows what was sent);
 * undefined when the request is the loop's. Compared by content: a wrapper that copies the request
 * unchanged changes nothing.
 */
function changedMessages(input: ModelCallInput, sent: SentParts): TraceMessage[] | undefined {
  const same =
    sent.messages === input.messages &&
    sent.instructions === input.instructions &&
    sent.tools === input.tools;
  if (same && !input.conversation.rewritten) return undefined;
  const messages = sent.messages.map(toTraceMessage);
  if (input.conversation.rewritten) return messages;
  const alike =
    sent.instructions === input.instructions &&
    JSON.stringify(sent.tools) === JSON.stringify(input.tools) &&
    JSON.stringify(messages) === JSON.stringify(input.messages.map(toTraceMessage));
  return alike ? undefined : messages;
}

/** The hash of each part of a request a feature rewrote: the parts it left keep theirs. */
function rewrittenParts(
  input: ModelCallInput,
  sent: SentParts,
  messagesHash: string,
): RequestParts | undefined {
  const parts = input.requestParts;
  if (parts === undefined) return undefined;
  return {
    ...parts,
    instructions:
      sent.instructions === input.instructions ? parts.instructions : hashString(sent.instructions),
    tools: sent.tools === input.tools ? parts.tools : hashString(JSON.stringify(sent.tools)),
    messages: messagesHash,
  };
}
