/** Every subject of the loop benchmark, by the key the worker is started with. */
import {
  agentTraceAppSdk,
  agentTraceBare,
  agentTraceJsonl,
  agentTraceOtlp,
  agentTraceReAct,
} from './agent-trace.js';
import { langGraph, langGraphLangSmith } from './langgraph.js';
import { openaiAgents } from './openai-agents.js';
import type { Subject } from './subject.js';
import { vercelAi, vercelAiOtlp } from './vercel-ai.js';

export const subjects = {
  'agent-trace': () => Promise.resolve(agentTraceBare()),
  'agent-trace-react': () => Promise.resolve(agentTraceReAct()),
  'agent-trace-jsonl': () => Promise.resolve(agentTraceJsonl()),
  'agent-trace-otlp': agentTraceOtlp,
  'agent-trace-app-sdk': () => Promise.resolve(agentTraceAppSdk()),
  'openai-agents-off': () => Promise.resolve(openaiAgents('off')),
  'openai-agents-noop': () => Promise.resolve(openaiAgents('noop')),
  'vercel-ai': () => Promise.resolve(vercelAi()),
  'vercel-ai-otel': () => Promise.resolve(vercelAi('otel')),
  'vercel-ai-otlp': vercelAiOtlp,
  langgraph: () => Promise.resolve(langGraph()),
  'langgraph-langsmith': langGraphLangSmith,
} satisfies Record<string, () => Promise<Subject>>;

/** A key of {@link subjects}. */
export type SubjectKey = keyof typeof subjects;

/** True when `key` names a subject. */
export const isSubjectKey = (key: string): key is SubjectKey => Object.hasOwn(subjects, key);
