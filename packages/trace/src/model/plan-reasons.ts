/** Why a planner was asked for a plan (a `plan` event's `reason`), in words. */
export const planReasons = {
  request: 'the request',
  refused_plan: 'a refused plan',
  step_failed: 'a failed step',
} as const;
