// The import graph of src/ as esbuild resolves it: no cycle, no import that runs up a layer
// (scripts/layers.mjs), dynamic and type-only imports included.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { ROOT } from '../support/cli.js';

it('src/ has no import cycle and no import that runs up a layer', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ['scripts/imports.mjs'], {
    cwd: ROOT,
  }).catch((error: { stdout: string }) => ({ stdout: error.stdout }));
  expect(stdout).toBe('No cycle, no upward import.\n');
});
