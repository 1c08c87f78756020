// Vitest global setup of the e2e and oracle projects: one fresh build of the current src/ per
// test run, so those tests run what the source says now, never a committed dist/ that may be
// stale (npm test's build:check compares dist/ with src/ once, before the tests). The build goes
// inside the repository so that the bundle's require() still finds node_modules. Both projects
// list this file; the second to start finds the first one's build and uses it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export default function setup(): () => void {
  if (process.env.AUDITOR_DIST !== undefined) return () => undefined;
  const parent = join(ROOT, '.vitest-tmp');
  mkdirSync(parent, { recursive: true });
  const dir = mkdtempSync(join(parent, 'dist-'));
  execFileSync(process.execPath, ['scripts/build.mjs', '--outdir', dir], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  process.env.AUDITOR_DIST = dir;
  return () => {
    rmSync(dir, { recursive: true, force: true });
    delete process.env.AUDITOR_DIST;
  };
}
