#!/usr/bin/env node
// The command in the repository, run from its TypeScript sources. The packed package's command is
// the compiled dist/bin/agent-trace.js (its package.json's publishConfig.bin).
import { register } from 'tsx/esm/api';

register();
await import('../src/bin/agent-trace.ts');
