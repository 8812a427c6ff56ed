/** Each wire subject's row name: the workers' subjects carry it, and so does a cell capped early. */
export const wireNames = {
  'agent-trace': 'agent-trace (openai adapter)',
  'vercel-ai': 'Vercel AI SDK (@ai-sdk/openai)',
  'openai-agents': 'OpenAI Agents SDK (default model, Chat Completions)',
  langgraph: 'LangGraph.js (ChatOpenAI)',
  mastra: 'Mastra (@ai-sdk/openai)',
  floor: "floor: the adapter's requests, fetch + JSON.parse",
  'openai-client': "the official openai client alone, the adapter's requests",
} as const;
