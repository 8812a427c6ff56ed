// docs/guide/testing.md, "A property test"
import { assertTerminates } from '@agent-trace/testing/property';
import { it } from 'vitest';
import { supportDesk } from './support-agent.js';

it('terminates within its bounds whatever the models do', async () => {
  await assertTerminates(
    models => supportDesk({ support: models.for('support'), billing: models.for('billing') }),
    {
      toolNames: ['lookup_order'],
      handoffTargets: ['billing'],
      limits: { maxSteps: 5 },
      numRuns: 300,
      seed: 1,
    },
  );
});
