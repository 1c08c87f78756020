// Lists the import cycles of src/ and every import that runs up a layer (scripts/layers.mjs says
// which layer may import which), from esbuild's metafile of every file of src/: the same
// resolution the build uses, dynamic imports included. `import type` leaves no trace in
// esbuild's output, so each is read as a bare import of its module first: a type that runs up a
// layer couples the layers as much as a value does.
// `node scripts/imports.mjs` prints them and exits 1 when there is any; test/e2e/layers.test.ts
// runs importGraph().
import { build } from 'esbuild';
import { readFile, readdir } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { layerProblems } from './layers.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const TYPE_ONLY = '?type-only';

/** `import type … from 'x'` and `export type … from 'x'` become `import {} from 'x?type-only'`. */
const typeImports = {
  name: 'type-imports',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      return {
        contents: text.replace(
          /^(import|export) type\b[^;]*?\bfrom\s*(['"])([^'"]+)\2/gms,
          (_, keyword, quote, spec) => `${keyword} {} from ${quote}${spec}${TYPE_ONLY}${quote}`,
        ),
        loader: 'ts',
      };
    });
    b.onResolve({ filter: /\?type-only$/ }, async (args) => {
      const { path, external, errors } = await b.resolve(args.path.slice(0, -TYPE_ONLY.length), {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
      });
      return errors.length ? { errors } : { path, external };
    });
  },
};

/**
 * Every import between files of src/, as { from, to, kind } with paths relative to src/ and kind
 * 'static', 'dynamic' or 'type'.
 */
export async function importGraph() {
  const src = join(root, 'src');
  const entryPoints = (await readdir(src, { recursive: true }))
    .filter((path) => path.endsWith('.ts'))
    .map((path) => join(src, path));
  const { metafile } = await build({
    entryPoints,
    absWorkingDir: root,
    bundle: true,
    write: false,
    metafile: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    outdir: join(root, '.imports-out'),
    logLevel: 'error',
    alias: { '@modelcontextprotocol/client/_shims': './src/server/sdk-shims.ts' },
    plugins: [typeImports],
  });
  const inSrc = (path) => (path.startsWith('src/') ? relative('src', path) : undefined);
  const edges = [];
  for (const [path, input] of Object.entries(metafile.inputs)) {
    const from = inSrc(path);
    if (from === undefined) continue;
    for (const record of input.imports) {
      const to = inSrc(record.path);
      if (to === undefined) continue;
      const kind = record.original.endsWith(TYPE_ONLY)
        ? 'type'
        : record.kind === 'dynamic-import'
          ? 'dynamic'
          : 'static';
      edges.push({ from, to, kind });
    }
  }
  return edges;
}

/** The graph's problems (see layerProblems), each import shown with its kind when not static. */
export async function importProblems() {
  const edges = await importGraph();
  const kinds = new Map(edges.map((e) => [`${e.from} -> ${e.to}`, e.kind]));
  const problems = layerProblems(edges.map((e) => [e.from, e.to]));
  return {
    ...problems,
    upward: problems.upward.map((line) => {
      const kind = kinds.get(line.slice(0, line.indexOf(' (')));
      return kind === 'static' ? line : `${line} [${kind}]`;
    }),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { unplaced, upward, cycles } = await importProblems();
  for (const { files, circle } of cycles) {
    const more =
      files.length > circle.length - 1 ? ` (${files.length} files: ${files.join(', ')})` : '';
    console.log(`cycle: ${circle.join(' -> ')}${more}`);
  }
  for (const line of upward) console.log(`upward: ${line}`);
  for (const path of unplaced)
    console.log(`no layer holds src/${path}: add it to scripts/layers.mjs`);
  const count = cycles.length + upward.length + unplaced.length;
  console.log(
    count
      ? `${cycles.length} cycles, ${upward.length} upward imports`
      : 'No cycle, no upward import.',
  );
  process.exitCode = count ? 1 : 0;
}
