// Vitest global setup of the e2e and oracle projects: one fresh build of the current src/ per
// test run, so those tests run what the source says now, never a committed dist/ that may be
// stale (npm test's build:check compares dist/ with src/ once, before the tests). The build goes
// inside the repository so that the bundle's require() still finds node_modules. Both projects
// list this file; the second to start finds the first one's build and uses it.
//
// The fixture servers are bundled beside it (AUDITOR_SERVERS, read by cli.ts and
// spawn-fixture.ts): the same files, each with the MCP SDK and zod it imports in one module. The
// suite starts the SDK-built ones some 200 times, and a start that reads one module, not the
// packages' hundreds, takes about half the CPU.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURES = join(ROOT, 'test/fixtures/servers');

/** Every fixture server of test/fixtures/servers bundled into `out`, its data files copied. */
function bundleServers(out: string): void {
  const files = readdirSync(FIXTURES);
  buildSync({
    entryPoints: files.filter((f) => f.endsWith('.mjs')).map((f) => join(FIXTURES, f)),
    outdir: out,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: 'warning',
    // A CommonJS dependency's require() needs one in ESM output.
    banner: {
      js: "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);",
    },
  });
  // shared.mjs reads notes-spec.json beside itself (import.meta.url), and its code may be in a
  // chunk: the data files go in both folders.
  for (const file of files.filter((f) => f.endsWith('.json')))
    for (const to of [out, join(out, 'chunks')]) copyFileSync(join(FIXTURES, file), join(to, file));
}

export default function setup(): () => void {
  if (process.env.AUDITOR_DIST !== undefined) return () => undefined;
  const parent = join(ROOT, '.vitest-tmp');
  mkdirSync(parent, { recursive: true });
  const dir = mkdtempSync(join(parent, 'dist-'));
  execFileSync(process.execPath, ['scripts/build.mjs', '--outdir', dir], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  bundleServers(join(dir, 'servers'));
  process.env.AUDITOR_DIST = dir;
  process.env.AUDITOR_SERVERS = join(dir, 'servers');
  return () => {
    rmSync(dir, { recursive: true, force: true });
    delete process.env.AUDITOR_DIST;
    delete process.env.AUDITOR_SERVERS;
  };
}
