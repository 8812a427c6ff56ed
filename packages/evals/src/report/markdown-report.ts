import type { TranscriptEntry } from '../conversation/simulated-user.js';
import { transcriptLines } from '../conversation/transcript-text.js';
import { shortScore, signed, type ComparedEval } from './compared-evals.js';

/** Markdown cells hold no `|` or line break. */
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

/**
 * A comparison as Markdown for a CI step summary or a pull-request comment: a verdict line, each
 * scorer's means and difference with its 95% interval, then the regressed, improved and flaky
 * cases with the candidate's reason.
 */
export function comparisonMarkdown(compared: readonly ComparedEval[]): string {
  const regressed = compared.some(each => each.comparison.regressed);
  const failed = compared.some(each => each.comparison.failed.candidate.length > 0);
  const verdict = regressed
    ? `❌ Evals regressed${failed ? ', and tasks failed' : ''}`
    : failed
      ? '❌ Tasks failed'
      : '✅ No eval regressed';
  const lines = [`## ${verdict}`, ''];
  for (const each of compared) lines.push(...evalSection(each), '');
  return `${lines.join('\n').trimEnd()}\n`;
}

function evalSection({
  eval: name,
  baseline,
  candidate,
  baselineLabel,
  candidateLabel,
  comparison,
  notes = [],
}: ComparedEval): string[] {
  const side = (id: string, label: string | undefined) =>
    `\`${id}\`${label === undefined ? '' : ` (${label})`}`;
  const lines = [
    `### ${cell(name)}: ${side(baseline, baselineLabel)} → ${side(candidate, candidateLabel)}`,
    '',
    ...notes.map(note => `> ${cell(note)}`),
    ...(notes.length > 0 ? [''] : []),
    '| scorer | baseline | candidate | difference | 95% interval | regressed | improved |',
    '| --- | ---: | ---: | ---: | --- | ---: | ---: |',
  ];
  for (const scorer of comparison.scorers) {
    const [low, high] = scorer.interval;
    lines.push(
      `| ${cell(scorer.scorer)} | ${scorer.baseline.toFixed(3)} | ${scorer.candidate.toFixed(3)} | ${signed(scorer.difference)} | ${signed(low)} to ${signed(high)} | ${scorer.regressed.length} | ${scorer.improved.length} |`,
    );
  }
  const changes = comparison.scorers.flatMap(scorer => [
    ...scorer.regressed.flatMap(change => [
      `- ❌ **${cell(change.id)}** (${cell(scorer.scorer)}): ${shortScore(change.baseline)} → ${shortScore(change.candidate)}: ${cell(change.reason)}`,
      ...transcriptItems(change.transcript),
    ]),
    ...scorer.improved.map(
      change =>
        `- ✅ ${cell(change.id)} (${cell(scorer.scorer)}): ${shortScore(change.baseline)} → ${shortScore(change.candidate)}`,
    ),
  ]);
  const flaky = comparison.flaky.map(
    each =>
      `- ⚠️ flaky ${cell(each.id)} (${cell(each.scorer)}): trials scored ${each.scores.join(', ')}`,
  );
  const failed = (['candidate', 'baseline'] as const).flatMap(which =>
    comparison.failed[which].map(
      each =>
        `- ❌ **${cell(each.id)}#${each.trial}** failed in the ${which}: the task threw: ${cell(each.error)}`,
    ),
  );
  if (changes.length + flaky.length + failed.length > 0)
    lines.push('', ...failed, ...changes, ...flaky);
  if (comparison.unpaired.length > 0)
    lines.push('', `Only in one experiment: ${comparison.unpaired.map(cell).join(', ')}`);
  return lines;
}

/** A regressed conversation's transcript, folded under its line: who said what. */
function transcriptItems(transcript: readonly TranscriptEntry[] | undefined): string[] {
  if (transcript === undefined || transcript.length === 0) return [];
  return [
    '  <details><summary>transcript</summary>',
    '',
    ...transcriptLines(transcript, 200).map(line => `  - ${cell(line).replace(/[<>]/g, ' ')}`),
    '  </details>',
  ];
}
