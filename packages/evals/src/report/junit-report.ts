import type { ScorerComparison } from '../compare/compare-evals.js';
import type { TranscriptEntry } from '../conversation/simulated-user.js';
import { transcriptLines } from '../conversation/transcript-text.js';
import { shortScore, signed, type ComparedEval } from './compared-evals.js';

const xmlEscapes: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

/** Text as XML attribute or element content; characters XML 1.0 cannot hold are dropped. */
function xml(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
      .replace(/[&<>"']/g, character => xmlEscapes[character] ?? character)
  );
}

/**
 * A comparison as JUnit XML, which CI systems show as tests: a test suite per eval and scorer, a
 * test case per paired case, failing when the case regressed past the tolerance; a flaky case
 * passes with its trials' scores in its output. The candidate's trials whose task threw fail in
 * a suite of their own.
 */
export function comparisonJUnit(compared: readonly ComparedEval[]): string {
  const suites = compared.flatMap(each => [
    ...(each.comparison.failed.candidate.length === 0 ? [] : [failedSuite(each)]),
    ...each.comparison.scorers.map(scorer => suite(each, scorer)),
  ]);
  const tests = suites.reduce((sum, each) => sum + each.tests, 0);
  const failures = suites.reduce((sum, each) => sum + each.failures, 0);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="agent-trace evals" tests="${tests}" failures="${failures}">`,
    ...suites.map(each => each.xml),
    '</testsuites>',
    '',
  ].join('\n');
}

/** The candidate's trials whose task threw, each a failing test case. */
function failedSuite(compared: ComparedEval): { xml: string; tests: number; failures: number } {
  const name = `${compared.eval} · tasks`;
  const failed = compared.comparison.failed.candidate;
  return {
    tests: failed.length,
    failures: failed.length,
    xml: [
      `  <testsuite name="${xml(name)}" tests="${failed.length}" failures="${failed.length}">`,
      ...failed.map(
        each =>
          `    <testcase classname="${xml(name)}" name="${xml(`${each.id}#${each.trial}`)}">\n      <failure message="the task threw">${xml(each.error)}</failure>\n    </testcase>`,
      ),
      '  </testsuite>',
    ].join('\n'),
  };
}

function suite(
  compared: ComparedEval,
  scorer: ScorerComparison,
): { xml: string; tests: number; failures: number } {
  const name = `${compared.eval} · ${scorer.scorer}`;
  const regressed = new Map(scorer.regressed.map(change => [change.id, change]));
  const flaky = new Map(
    compared.comparison.flaky
      .filter(each => each.scorer === scorer.scorer)
      .map(each => [each.id, each.scores]),
  );
  const [low, high] = scorer.interval;
  const cases = scorer.cases.map(change => {
    const open = `    <testcase classname="${xml(name)}" name="${xml(change.id)}">`;
    const failed = regressed.get(change.id);
    if (failed !== undefined)
      return `${open}\n      <failure message="${xml(`regressed: ${shortScore(failed.baseline)} → ${shortScore(failed.candidate)}`)}">${xml(withTranscript(failed.reason, failed.transcript))}</failure>\n    </testcase>`;
    const trials = flaky.get(change.id);
    if (trials !== undefined)
      return `${open}\n      <system-out>${xml(`flaky: trials scored ${trials.join(', ')}`)}</system-out>\n    </testcase>`;
    return `${open}</testcase>`;
  });
  return {
    tests: cases.length,
    failures: regressed.size,
    xml: [
      `  <testsuite name="${xml(name)}" tests="${cases.length}" failures="${regressed.size}">`,
      `    <properties><property name="baseline" value="${xml(compared.baseline)}"/><property name="candidate" value="${xml(compared.candidate)}"/><property name="difference" value="${xml(`${signed(scorer.difference)} (95% ${signed(low)} to ${signed(high)})`)}"/></properties>`,
      ...cases,
      '  </testsuite>',
    ].join('\n'),
  };
}

/** A regressed case's reason, and a conversation's transcript under it. */
function withTranscript(
  reason: string,
  transcript: readonly TranscriptEntry[] | undefined,
): string {
  if (transcript === undefined || transcript.length === 0) return reason;
  return [reason, '', 'transcript:', ...transcriptLines(transcript, 200)].join('\n');
}
