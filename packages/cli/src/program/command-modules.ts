import { loadOptional } from './optional-package.js';

/**
 * Each command's module, loaded when that command runs: `agent-trace diff` does not load the OTLP
 * exporter, the viewer's server, the evals or the trace library's index, so it starts sooner and
 * holds less. A command that needs an optional package of the CLI (the evals, the viewer) says
 * which to install when it is missing.
 */
export const commandModules = {
  follow: () => import('../commands/follow.js'),
  replay: () => import('../commands/replay.js'),
  validate: () => import('../commands/validate.js'),
  diff: () => import('../commands/diff.js'),
  stats: () => import('../commands/stats.js'),
  export: () => import('../commands/export.js'),
  feedback: () => import('../commands/feedback.js'),
  dataset: () => loadOptional('dataset', () => import('../commands/dataset.js')),
  rerun: () => import('../commands/rerun.js'),
  fork: () => import('../commands/fork.js'),
  regress: () => loadOptional('regress', () => import('../commands/regress.js')),
  eval: () => loadOptional('eval', () => import('../commands/eval.js')),
  evalCompare: () => loadOptional('eval compare', () => import('../commands/eval-compare.js')),
  evalView: () => loadOptional('eval view', () => import('../commands/eval-view.js')),
  view: () => loadOptional('view', () => import('../commands/view.js')),
  serve: () => loadOptional('serve', () => import('../commands/serve.js')),
  import: () => loadOptional('import', () => import('../commands/import.js')),
  library: () => import('../commands/library.js'),
  runFilter: () => import('@agent-trace/trace/library'),
};
