// What publishing needs of package.json and action.yml, read as files: no pack, no install. The
// packed tarball's contents and its adoption from it run end to end in test/e2e/adopt.test.ts.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VERSION } from '../../src/version.js';
import { ROOT } from '../support/cli.js';

describe('the npm package', () => {
  it('is ready to publish: bin, engines, repository, a build check first, no runtime installs', async () => {
    const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(pkg.version).toBe(VERSION);
    expect(pkg.bin).toEqual({ 'mcp-annotation-auditor': 'dist/cli.js' });
    expect(pkg.engines).toEqual({ node: '>=20' });
    expect((pkg.repository as { url: string }).url).toMatch(/github\.com/);
    expect((pkg.scripts as Record<string, string>).prepublishOnly).toBe('npm run build:check');
    // The bundle carries its dependencies: installing it installs nothing else.
    expect(pkg.dependencies).toBeUndefined();
    await expect(readFile(join(ROOT, 'LICENSE'), 'utf8')).resolves.toMatch(/^MIT License/);
  });

  it("fits the action's description within the Marketplace's limit", async () => {
    const yml = await readFile(join(ROOT, 'action.yml'), 'utf8');
    const description = /^description: (.*)$/m.exec(yml)?.[1] ?? '';
    expect(description.length).toBeGreaterThan(20);
    expect(description.length).toBeLessThan(125);
  });
});
