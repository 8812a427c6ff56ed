import type { ModelRequest } from '@agent-trace/core';
import type { RecordedCall } from './recording.js';

/**
 * Which recorded turn each model call belongs to: the calls under one agent span, and the user
 * message the turn began with. An agent asked twice at once (an advisor asked about two resorts,
 * in any framework) has two turns; each turn of the rerun gets its own recorded answers, whatever
 * order the two ask their models in, instead of the agent's answers in the order asked.
 */
export class CallTurns {
  readonly #taken = new Set<RecordedCall>();
  /** Each agent's recorded turns, by agent span. */
  readonly #turns = new Map<string, Map<string, Turn>>();

  /** Files a recorded model call under its agent's turn. */
  add(call: RecordedCall): void {
    const { agent, parent_span_id: parent } = call.start;
    if (parent === null) return;
    const turns = this.#turns.get(agent) ?? new Map<string, Turn>();
    this.#turns.set(agent, turns);
    const turn = turns.get(parent) ?? { began: firstUserMessage(call.start.messages), calls: [] };
    turns.set(parent, turn);
    turn.calls.push(call);
  }

  /**
   * The next recorded call of `agent`: of its recorded turn `turn` (an agent span) when the rerun
   * knows which it is, else of the recorded turn `request` goes on when the agent has several,
   * else the next of `all` (the agent's calls in order) not yet given.
   */
  take(
    agent: string,
    all: RecordedCall[] | undefined,
    request?: Pick<ModelRequest, 'messages'>,
    turn?: string,
  ): RecordedCall | undefined {
    const own = turn === undefined ? undefined : this.#turns.get(agent)?.get(turn);
    let call: RecordedCall | undefined;
    if (own !== undefined) call = own.calls.find(each => !this.#taken.has(each));
    else if (request !== undefined) call = this.#inTurn(agent, request) ?? next(all, this.#taken);
    else call = next(all, this.#taken);
    if (call !== undefined) this.#taken.add(call);
    return call;
  }

  /**
   * The next call of the recorded turn `request` goes on: of the agent's turns that began with the
   * same user message, the one whose next call was sent as many messages as the request holds (a
   * turn handed the conversation so far, and one asked afresh, begin alike); else the one that has
   * given as many answers as the request holds.
   */
  #inTurn(agent: string, request: Pick<ModelRequest, 'messages'>): RecordedCall | undefined {
    const turns = this.#turns.get(agent);
    if (turns === undefined || turns.size < 2) return undefined;
    const began = request.messages.find(message => message.role === 'user')?.content;
    const answered = request.messages.filter(message => message.role === 'assistant').length;
    const candidates: { readonly call: RecordedCall; readonly given: number }[] = [];
    for (const turn of turns.values()) {
      if (turn.began !== began) continue;
      const given = turn.calls.filter(call => this.#taken.has(call)).length;
      const call = turn.calls[given];
      if (call !== undefined && !this.#taken.has(call)) candidates.push({ call, given });
    }
    return (
      candidates.find(({ call }) => call.start.message_count === request.messages.length)?.call ??
      candidates.find(({ given }) => given === answered)?.call
    );
  }
}

/** The model calls of one agent span, and the user message its first request began with. */
interface Turn {
  readonly began: string | undefined;
  readonly calls: RecordedCall[];
}

function firstUserMessage(messages: RecordedCall['start']['messages']): string | undefined {
  const first = messages.find(message => message.role === 'user');
  return first?.role === 'user' ? first.content : undefined;
}

/** The first call of `list` not yet given, dropping those given from its front. */
function next(
  list: RecordedCall[] | undefined,
  taken: ReadonlySet<RecordedCall>,
): RecordedCall | undefined {
  if (list === undefined) return undefined;
  while (list.length > 0 && taken.has(list[0] as RecordedCall)) list.shift();
  return list.find(call => !taken.has(call));
}
