import { describe, expect, it } from 'vitest';
import { importPeer } from './import-peer.js';

const missing = () =>
  Promise.reject(
    Object.assign(new Error("Cannot find package 'left-pad' imported from here"), {
      code: 'ERR_MODULE_NOT_FOUND',
    }),
  );

describe('a missing optional peer', () => {
  it('is advised as a dependency when the application runs with it', async () => {
    await expect(
      importPeer(missing, { peer: 'left-pad', needer: 'a bridge', range: '^1.0.0', runtime: true }),
    ).rejects.toThrow(
      "a bridge needs the package 'left-pad' (^1.0.0), which is not installed. Install it: npm install left-pad@'^1.0.0' (or pnpm add / yarn add).",
    );
  });

  it('is advised as a development dependency when only tests use it', async () => {
    await expect(
      importPeer(missing, { peer: 'left-pad', needer: 'a test helper', range: '^1.0.0' }),
    ).rejects.toThrow(
      "Install it: npm install --save-dev left-pad@'^1.0.0' (or pnpm add -D / yarn add -D).",
    );
  });
});
