/**
 * `@agent-trace/core/workflow`: workflows (from code, YAML or JSON) run as DAGs, paused at
 * approval steps or inside agent steps and resumed; and planning, where a planner agent writes the
 * workflow. Workflow files are read with the optional peer `yaml`, loaded here: a project that
 * never imports this entry does not need it.
 */
import { importPeer } from './kernel/util/import-peer.js';
import { provideYaml } from './workflow/yaml-peer.js';

provideYaml(
  await importPeer(() => import('yaml'), {
    peer: 'yaml',
    needer: '@agent-trace/core/workflow',
    range: '^2.8.0',
    runtime: true,
  }),
);

export { resumeWorkflow, runWorkflow } from './workflow/run-workflow.js';
export { planAndRun, resumePlan } from './workflow/plan-and-run.js';
export type {
  PlanAndRunOptions,
  PlanRecord,
  PlanResult,
  ResumePlanOptions,
} from './workflow/plan-and-run.js';
export { PLAN_STATE_FORMAT, PLAN_STATE_VERSION } from './workflow/plan-snapshot.js';
export type { PlanStateRecord, PlanStateSnapshot } from './workflow/plan-snapshot.js';
export { planRequest, planText } from './workflow/plan-prompt.js';
export type { PlanCatalog } from './workflow/plan-prompt.js';
export type {
  ResumeWorkflowOptions,
  WorkflowResult,
  WorkflowRunOptions,
} from './workflow/run-workflow.js';
export type { WorkflowStatus } from './workflow/execute-workflow.js';
export { WORKFLOW_STATE_FORMAT, WORKFLOW_STATE_VERSION } from './workflow/workflow-snapshot.js';
export type {
  PausedAgentStep,
  PausedWorkflow,
  WorkflowStateSnapshot,
} from './workflow/workflow-snapshot.js';
export { workflow } from './workflow/workflow.js';
export type {
  SourcePosition,
  Workflow,
  WorkflowProblem,
  WorkflowStep,
  WorkflowStepDefinition,
  WorkflowStepRuns,
} from './workflow/workflow.js';
export { loadWorkflow, WorkflowLoadError } from './workflow/load-workflow.js';
export type { LoadWorkflowOptions } from './workflow/load-workflow.js';
export type { WorkflowStepRecord, WorkflowStepStatus } from './workflow/step-record.js';
export { ConditionError, parseCondition } from './workflow/condition.js';
export type { Condition } from './workflow/condition.js';
