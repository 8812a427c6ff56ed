/** The payload of each chunk type. */
export interface ChunkData {
  /**
   * Text from the model as it arrives (one piece per model call when the run does not stream). In
   * ReAct mode, only the Final Answer.
   */
  delta: { readonly text: string };
  /** The LLM asked for a tool call; it is about to run. */
  tool_call: { readonly callId: string; readonly toolName: string; readonly args: unknown };
  /** A tool call finished, with its result or the error the LLM is told. */
  tool_response: {
    readonly callId: string;
    readonly toolName: string;
    readonly result: unknown;
    readonly error: string | undefined;
  };
  /**
   * In ReAct mode, the model's text other than the Final Answer, as it arrives: its Thought, the
   * Action and the Action Input (and an Observation it wrote itself, which is refused). The Final
   * Answer comes as `delta` chunks.
   */
  react: {
    readonly label: 'thought' | 'action' | 'action_input' | 'observation';
    readonly text: string;
  };
  /** Token usage of one model call. */
  usage: { readonly promptTokens: number; readonly completionTokens: number };
  /**
   * The run failed, was aborted, or stopped without completing (a limit, a guardrail block, a
   * degraded answer): `kind` is the error type or the stop reason, `message` says why.
   */
  error: { readonly kind: string; readonly message: string };
  /** Control passes to another agent (`pass_control`) or a delegate starts (`return_to_caller`). */
  handoff: {
    readonly from: string;
    readonly to: string;
    readonly depth: number;
    readonly mode: 'pass_control' | 'return_to_caller';
  };
}

/** A chunk type: `delta`, `react`, `tool_call`, `tool_response`, `handoff`, `usage` or `error`. */
export type ChunkType = keyof ChunkData;

/**
 * One item of a run's stream. `seq` starts at 0 and grows by exactly one per chunk, so a consumer
 * (say, a browser over SSE) can detect gaps.
 */
export type Chunk = {
  [Type in ChunkType]: {
    /** ISO-8601. */
    readonly time: string;
    /** The agent that produced the chunk. */
    readonly agent: string;
    /** The run's session. */
    readonly session: string;
    readonly type: Type;
    readonly data: ChunkData[Type];
    readonly seq: number;
  };
}[ChunkType];
