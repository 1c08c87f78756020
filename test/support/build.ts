// Vitest global setup: one fresh build of the current src/ per test run, so the integration tests
// run what the source says now, never a committed dist/ that may be stale (the dist-matches-build
// check in docs.test.ts stays separate). The build goes inside the repository so that the bundle's
// require() still finds node_modules.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export default function setup(): () => void {
  const parent = join(ROOT, '.vitest-tmp');
  mkdirSync(parent, { recursive: true });
  const dir = mkdtempSync(join(parent, 'dist-'));
  execFileSync(process.execPath, ['scripts/build.mjs', '--outdir', dir], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  process.env.AUDITOR_DIST = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
