/**
 * A call a feature refused, in the feature's own words: its name and its own kind of refusal
 * (`{ feature: 'tool-quota', kind: 'quota_exceeded' }`). The refused call's error has kind
 * `refused`, and its trace error carries both (`error.feature`, `error.refusal`).
 */
export interface FeatureRefusal {
  readonly feature: string;
  readonly kind: string;
}
