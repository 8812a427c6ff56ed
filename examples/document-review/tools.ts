import { tool } from '@agent-trace/core';
import { z } from 'zod';

/** Finds doubled words and doubled spaces: a tiny, deterministic grammar checker. */
export const checkGrammar = tool({
  name: 'check_grammar',
  description: 'List grammar and typing problems in a text.',
  input: z.object({ text: z.string().min(1) }),
  execute: ({ text }) => {
    const issues: string[] = [];
    for (const match of text.matchAll(/\b(\w+)\s+\1\b/gi))
      issues.push(`doubled word '${match[1]}'`);
    if (/ {2,}/.test(text)) issues.push('double space');
    return { issues };
  },
});

const library: Record<string, readonly string[]> = {
  tracing: ['W3C Trace Context (2021)', 'OpenTelemetry GenAI semantic conventions (2025)'],
  agents: ['ReAct: Synergizing Reasoning and Acting (2023)'],
};

/** Looks a topic up in a small reference library. */
export const findReferences = tool({
  name: 'find_references',
  description: 'Find references for a topic.',
  input: z.object({ topic: z.string() }),
  execute: ({ topic }) => ({ topic, references: library[topic.toLowerCase()] ?? [] }),
});

/** Counts the words of a text. */
export const countWords = tool({
  name: 'count_words',
  description: 'Count the words of a text.',
  input: z.object({ text: z.string() }),
  execute: ({ text }) => text.split(/\s+/).filter(word => word !== '').length,
});

/** Compares a text with known sources: a stand-in plagiarism check with a fixed similarity. */
export const plagiarismCheck = tool({
  name: 'plagiarism_check',
  description: 'Similarity (0 to 1) of a text with known sources.',
  input: z.object({ text: z.string() }),
  execute: ({ text }) => ({
    similarity: text.includes('span') ? 0.31 : 0.05,
    closest: 'OpenTelemetry docs',
  }),
});

/** Scores a text against a fixed rubric. */
export const scoreRubric = tool({
  name: 'score_rubric',
  description: 'Score a text from 0 to 10 on clarity, citations and length.',
  input: z.object({ text: z.string() }),
  execute: ({ text }) => ({
    clarity: 3,
    citations: text.includes('W3C') ? 3 : 1,
    length: 2,
    total: text.includes('W3C') ? 8 : 6,
  }),
});
