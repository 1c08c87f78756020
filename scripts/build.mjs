// Bundles the action (dist/index.js) and the CLI (dist/cli.js) into one ESM file each.
// With --check, builds into a temporary folder and fails when dist/ differs from a fresh build.
import { build } from 'esbuild';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const check = process.argv.includes('--check');
const outdir = check ? await mkdtemp(join(tmpdir(), 'auditor-dist-')) : 'dist';

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'eof',
  logLevel: 'warning',
  // cross-spawn and other CommonJS dependencies call require(); ESM output needs one.
  banner: {
    js: "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);",
  },
};

await build({ ...common, entryPoints: { index: 'src/index.ts' }, outdir });
await build({
  ...common,
  entryPoints: { cli: 'src/cli.ts' },
  outdir,
});

if (check) {
  const stale = [];
  for (const name of await readdir(outdir)) {
    const fresh = await readFile(join(outdir, name));
    const committed = await readFile(join('dist', name)).catch(() => undefined);
    if (!committed || !fresh.equals(committed)) stale.push(`dist/${name}`);
  }
  await rm(outdir, { recursive: true, force: true });
  if (stale.length) {
    console.error(
      `dist/ does not match a fresh build of src/ (${stale.join(', ')}). Run npm run build and commit dist/.`,
    );
    process.exit(1);
  }
  console.log('dist/ matches a fresh build.');
}
