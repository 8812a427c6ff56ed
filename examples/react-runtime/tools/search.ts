import { z } from 'zod';
import { tool } from '@agent-trace/core';
import { corpus, type CorpusDocument } from './corpus.js';

const words = (text: string): string[] => text.toLowerCase().match(/[a-z0-9]+/g) ?? [];

/** A search hit: the document, its score and the sentence that matched best. */
export interface SearchHit {
  readonly source: string;
  readonly title: string;
  readonly snippet: string;
  readonly score: number;
}

/**
 * Ranks the documents for a query by TF-IDF over their words (title and text); ties go to the
 * earlier document, so the order is the same on every run.
 */
export function searchCorpus(
  query: string,
  topK: number,
  documents: readonly CorpusDocument[] = corpus,
): SearchHit[] {
  const terms = [...new Set(words(query))];
  const bags = documents.map(document => words(`${document.title} ${document.text}`));
  const idf = new Map(
    terms.map(term => [
      term,
      Math.log(1 + documents.length / (1 + bags.filter(bag => bag.includes(term)).length)),
    ]),
  );
  return documents
    .map((document, index) => {
      const bag = bags[index] ?? [];
      const score = terms.reduce(
        (sum, term) =>
          sum + (bag.filter(word => word === term).length / bag.length) * (idf.get(term) ?? 0),
        0,
      );
      const sentences = document.text.split(/(?<=\.)\s+/);
      const snippet =
        [...sentences].sort(
          (a, b) =>
            terms.filter(term => words(b).includes(term)).length -
            terms.filter(term => words(a).includes(term)).length,
        )[0] ?? '';
      return {
        source: document.id,
        title: document.title,
        snippet,
        score: Math.round(score * 1e4) / 1e4,
      };
    })
    .filter(hit => hit.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, topK);
}

/** The search tool: the local corpus ranked for a query, each hit citing its source. */
export const search = tool({
  name: 'search',
  description: 'Searches the local documents; returns the best matches, each with its source id.',
  input: z.object({ query: z.string().min(1), top_k: z.number().int().min(1).max(10).default(5) }),
  execute: ({ query, top_k }) => ({ query, results: searchCorpus(query, top_k) }),
});
