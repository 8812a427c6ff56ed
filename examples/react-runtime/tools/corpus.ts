/** The search tool's documents: a small, fixed corpus, so answers are the same on every run. */
export interface CorpusDocument {
  readonly id: string;
  readonly title: string;
  readonly text: string;
}

export const corpus: readonly CorpusDocument[] = [
  {
    id: 'react-pattern',
    title: 'The ReAct pattern',
    text: 'ReAct interleaves reasoning and acting: the model writes a thought, chooses an action with its input, reads the observation the tool returns, and repeats until it can give a final answer.',
  },
  {
    id: 'otel-genai',
    title: 'OpenTelemetry GenAI conventions',
    text: 'The OpenTelemetry semantic conventions for generative AI name the spans of model calls (chat), tool executions (execute_tool) and agent invocations (invoke_agent), with attributes for the model, tokens and finish reasons.',
  },
  {
    id: 'trace-context',
    title: 'W3C Trace Context',
    text: 'W3C Trace Context defines the traceparent header: a version, a 16-byte trace id, an 8-byte parent span id and flags, so a trace can cross process boundaries.',
  },
  {
    id: 'retries',
    title: 'Retries and degraded answers',
    text: 'A tool that keeps failing is retried with backoff; after the last attempt the agent is told the tool is unavailable and answers without it, and the run is marked degraded.',
  },
  {
    id: 'token-limits',
    title: 'Token limits',
    text: 'Guardrails estimate tokens from characters, about four characters a token, and warn or block an input or output that is longer than the limit.',
  },
  {
    id: 'sqlite',
    title: 'SQLite',
    text: 'SQLite is an embedded SQL database engine in one library; sql.js compiles it to WebAssembly so it runs in Node.js and browsers without native modules.',
  },
  {
    id: 'orders-db',
    title: 'The orders database',
    text: 'The orders database holds customers (id, name, country) and orders (id, customer_id, total, status). Order totals are in euros; status is paid, refunded or open.',
  },
];
