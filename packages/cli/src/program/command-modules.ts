/**
 * Each command's module, loaded when that command runs: `agent-trace diff` does not load the OTLP
 * exporter, the viewer's server, the evals or the trace library's index, so it starts sooner and
 * holds less.
 */
export const commandModules = {
  follow: () => import('../commands/follow.js'),
  replay: () => import('../commands/replay.js'),
  validate: () => import('../commands/validate.js'),
  diff: () => import('../commands/diff.js'),
  stats: () => import('../commands/stats.js'),
  export: () => import('../commands/export.js'),
  rerun: () => import('../commands/rerun.js'),
  fork: () => import('../commands/fork.js'),
  regress: () => import('../commands/regress.js'),
  eval: () => import('../commands/eval.js'),
  evalCompare: () => import('../commands/eval-compare.js'),
  evalView: () => import('../commands/eval-view.js'),
  view: () => import('../commands/view.js'),
  serve: () => import('../commands/serve.js'),
  import: () => import('../commands/import.js'),
  library: () => import('../commands/library.js'),
  runFilter: () => import('@agent-trace/trace/library'),
};
