/**
 * The evals story end to end, on the library's API: the document-review eval on the desk's prompt
 * (the baseline, as if on main), then on a "shortened" prompt (as if on a branch); the comparison
 * names the drafts that regressed, and the experiments page shows them.
 *
 *   npx -y pnpm@10 review-evals
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatUsd } from '@agent-trace/core/cost';
import { compareEvals, comparisonMarkdown } from '@agent-trace/evals';
import { ExperimentStore, runExperiment } from '@agent-trace/evals/experiments';
import { experimentView, viewerHtml } from '@agent-trace/viewer';
import { hastyPrompt, reviewPrompt } from './prompts.js';
import { reviewEval } from './review-eval.js';

const root = process.argv[2] ?? 'traces/review-evals';
mkdirSync(root, { recursive: true });

const baseline = await runExperiment(reviewEval(reviewPrompt), { root, git: { branch: 'main' } });
const candidate = await runExperiment(reviewEval(hastyPrompt), {
  root,
  git: { branch: 'hasty-prompt' },
});
for (const { experiment } of [baseline, candidate])
  console.log(
    `${experiment.id} (${experiment.git.branch}): ${Object.entries(experiment.means)
      .map(([name, mean]) => `${name} ${mean.toFixed(3)}`)
      .join('  ')}  cost ${formatUsd(experiment.costUsd)}`,
  );

const store = new ExperimentStore({ root });
const [before, after] = await Promise.all([
  store.result(baseline.experiment.id),
  store.result(candidate.experiment.id),
]);
const comparison = compareEvals(before, after);
console.log(
  comparisonMarkdown([
    {
      eval: after.name,
      baseline: before.experiment.id,
      candidate: after.experiment.id,
      comparison,
    },
  ]),
);

const page = join(root, 'experiment.html');
const side = (stored: typeof before) => ({
  result: stored,
  id: stored.experiment.id,
  label: stored.experiment.git.branch ?? '',
  costUsd: stored.experiment.costUsd,
});
writeFileSync(page, viewerHtml(await experimentView(side(after), side(before))));
console.log(`The experiments page: ${page}`);
process.exitCode = comparison.regressed ? 1 : 0;
