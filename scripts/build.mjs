// Bundles the action (dist/index.js) and the CLI (dist/cli.js). Each entry is small; the code
// past it is split into dist/chunks/, so that either starts the server under audit before the
// MCP SDK, zod and yaml have even been read.
// With --check, builds into a temporary folder and fails when dist/ differs from a fresh build.
// With --readable <dir>, builds into <dir> with the source's names kept and source maps, for CPU
// profiles (npm run bench -- --profile); dist/ is left alone.
// With --outdir <dir>, builds exactly what dist/ would hold into <dir> (the tests' fresh build).
import { build } from 'esbuild';
import { chmod, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const check = process.argv.includes('--check');
const readableAt = process.argv.indexOf('--readable');
const readable = readableAt >= 0 ? process.argv[readableAt + 1] : undefined;
if (readableAt >= 0 && !readable) throw new Error('--readable needs a folder');
const outdirAt = process.argv.indexOf('--outdir');
const freshAt = outdirAt >= 0 ? process.argv[outdirAt + 1] : undefined;
if (outdirAt >= 0 && !freshAt) throw new Error('--outdir needs a folder');
// The output folder is emptied first: only ever an earlier build's folder, or a new one.
if (readable && existsSync(readable) && !existsSync(join(readable, 'cli.js')))
  throw new Error(
    `--readable ${readable}: not an earlier build (no cli.js there); pick a new folder`,
  );
const outdir = check
  ? await mkdtemp(join(tmpdir(), 'auditor-dist-'))
  : (readable ?? freshAt ?? 'dist');
if (!check) await rm(outdir, { recursive: true, force: true });

const zodLocales = fileURLToPath(new URL('../node_modules/zod/v4/locales/', import.meta.url));

/**
 * Code the auditor never runs, kept out of the bundles so that it is neither read nor compiled
 * while the server under audit boots:
 * - the SDK's Node shims import Ajv as the default validator of tool results; the auditor never
 *   calls a tool, so src/server/sdk-shims.ts stands in for them (the alias below);
 * - zod re-exports every locale's error messages as `z.locales`; only English is used (zod itself
 *   imports it directly).
 * Checked below, though not done by the plugin: zod's `z.compile` and JSON Schema importer, which
 * only come back if some module passes the `z` namespace around as a value (see src/zod.ts).
 */
const leaveOut = {
  name: 'leave-out',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.startsWith(join(zodLocales, '..'))
        ? { path: 'zod-locales', namespace: 'leave-out' }
        : undefined,
    );
    b.onLoad({ filter: /^zod-locales$/, namespace: 'leave-out' }, () => ({
      contents: `export { default as en } from ${JSON.stringify(join(zodLocales, 'en.js'))};`,
      resolveDir: zodLocales,
    }));
  },
};

/** Fails the build when left-out code comes back (an SDK or zod update moved it). */
function assertLeftOut(result) {
  // What the output holds: zod's files are read whole, and tree-shaking then leaves some empty.
  const kept = Object.values(result.metafile.outputs).flatMap((output) =>
    Object.entries(output.inputs)
      .filter(([, input]) => input.bytesInOutput > 0)
      .map(([path]) => path),
  );
  const back = [...new Set(kept)].filter((path) =>
    /node_modules\/ajv|ajvProvider|\/zod\/v4\/locales\/(?!en\.js)|\/zod\/v4\/core\/compile\.js|\/zod\/v4\/classic\/from-json-schema\.js/.test(
      path,
    ),
  );
  if (back.length) {
    console.error(
      `Meant to stay out of the bundles (see leaveOut in scripts/build.mjs, and src/zod.ts): ${back.slice(0, 5).join(', ')}`,
    );
    process.exit(1);
  }
}

/**
 * @actions/core imports @actions/http-client (and with it undici and tunnel, about 450 kB) for
 * getIDToken, which the action never calls. They are declared free of side effects, so that
 * unused they are left out of the action's first chunks: undici is read only with the Octokit
 * chunk, which the action loads for a token, before any server is listed (see loadGitHub). The
 * one thing undici does as it loads, installing its agent as the global dispatcher that Node's
 * own fetch also uses (the HTTP transport's requests), then happens before a listing or never.
 */
const SIDE_EFFECT_FREE = /^(@actions\/http-client(\/.*)?|undici|tunnel)$/;
const sideEffectFree = {
  name: 'side-effect-free',
  setup(b) {
    b.onResolve({ filter: SIDE_EFFECT_FREE }, async (args) => {
      if (args.pluginData?.resolving) return undefined;
      const { path, errors } = await b.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: { resolving: true },
      });
      return errors.length ? { errors } : { path, sideEffects: false };
    });
  },
};

const common = {
  alias: {
    '@modelcontextprotocol/client/_shims': './src/server/sdk-shims.ts',
    // Its package "main" is a UMD wrapper esbuild cannot follow (its require is a parameter);
    // the ES module build bundles, and only the functions used are kept.
    'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js',
  },
  plugins: [leaveOut, sideEffectFree],
  metafile: true,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  minifyWhitespace: true,
  minifySyntax: true,
  minifyIdentifiers: !readable,
  // A readable build is for CPU profiles: its source maps let the bench's per-phase table tell
  // each sample's source file (bench/suites/phases.mjs).
  ...(readable ? { sourcemap: true } : {}),
  legalComments: 'eof',
  logLevel: 'warning',
  // cross-spawn and other CommonJS dependencies call require(); ESM output needs one.
  banner: {
    js: "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);",
  },
};

// The action (dist/index.js) and the CLI (dist/cli.js): small entries that start the server under
// audit, and the rest in dist/chunks/, loaded while that server boots. Two builds, so that each
// entry's path loads the fewest files (a file costs about a millisecond to load, and one build of
// both would cut the code into pieces for every combination of entries that shares it). The
// price: what both use (zod, yaml, the MCP SDK, about 420 kB) is there twice, under two names,
// as each build's runtime-helper chunk differs and every chunk names its own.
const outputs = {};
const reachable = new Set();
const ofEntry = {};
for (const entry of ['index', 'cli']) {
  const result = await build({
    ...common,
    entryPoints: { [entry]: `src/${entry}.ts` },
    outdir,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
  });
  assertLeftOut(result);
  Object.assign(outputs, result.metafile.outputs);
  const next = Object.keys(result.metafile.outputs).filter(
    (path) => outputs[path].entryPoint === `src/${entry}.ts`,
  );
  const own = (ofEntry[entry] = new Set());
  while (next.length) {
    const path = next.pop();
    if (own.has(path)) continue;
    own.add(path);
    reachable.add(path);
    for (const { path: imported, external } of outputs[path].imports)
      if (!external) next.push(imported);
  }
}
// esbuild still writes a chunk for a dynamic import whose caller it left out (the SDK's
// import("jose"), for OAuth flows the auditor never runs): no entry can load it, so it is not
// shipped.
for (const path of Object.keys(outputs))
  if (!reachable.has(path) && !path.endsWith('.map')) await rm(path);

// The npm package is the CLI alone (package.json "files"): the chunks only the action loads are
// left out of it by an .npmignore beside them, which npm honours below a "files" folder.
const actionOnly = [...ofEntry.index]
  .filter((path) => !ofEntry.cli.has(path))
  .map((path) => relative(resolve(outdir, 'chunks'), resolve(path)))
  .filter((path) => !path.startsWith('..'))
  .sort();
await writeFile(
  join(outdir, 'chunks', '.npmignore'),
  `# Loaded only by the action (dist/index.js), which runs from the repository, not the package.\n${actionOnly.join('\n')}\n`,
);

// The CLI is the package's bin: executable, with its shebang from src/cli.ts.
await chmod(join(outdir, 'cli.js'), 0o755);

// The bundles are ES modules, and say so themselves: wherever dist/ is copied, Node takes every
// .js file in it as one at once. Without a package.json saying "type": "module" above them, Node
// 20 and later first parse each file as CommonJS, fail on its import, and parse it again.
await writeFile(join(outdir, 'package.json'), `${JSON.stringify({ type: 'module' })}\n`);

async function files(dir) {
  const out = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) out.push(relative(dir, join(entry.parentPath ?? entry.path, entry.name)));
  return out.sort();
}

if (check) {
  const fresh = await files(outdir);
  const committed = await files('dist').catch(() => []);
  const stale = [...new Set([...fresh, ...committed])].filter(
    (name) => !fresh.includes(name) || !committed.includes(name),
  );
  for (const name of fresh.filter((n) => committed.includes(n))) {
    const [a, b] = await Promise.all([readFile(join(outdir, name)), readFile(join('dist', name))]);
    if (!a.equals(b)) stale.push(name);
  }
  await rm(outdir, { recursive: true, force: true });
  if (stale.length) {
    console.error(
      `dist/ does not match a fresh build of src/ (${stale.map((n) => `dist/${n}`).join(', ')}). Run npm run build and commit dist/.`,
    );
    process.exit(1);
  }
  console.log('dist/ matches a fresh build.');
}
