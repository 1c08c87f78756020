// The module graph of the build being measured, from esbuild's metafile: esbuild bundles the
// copy's entries once more, without writing anything, and its metafile lists every file of the
// build with its size and its imports, each marked static or dynamic (`import()`). This reads
// the measured files themselves, so it holds for any build (--dist, --baseline), whatever
// commit made it, where a regular expression over the output would only guess at imports.
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { kb } from './stats.mjs';

/**
 * @typedef {{ bytes: number, imports: { path: string, kind: string, external?: boolean }[] }} Input
 * @typedef {{ dir: string, inputs: Record<string, Input> }} Graph  inputs by path from dir
 */

/**
 * The graph of the build in `dir`, from its entries (cli.js and index.js).
 * @param {string} dir @returns {Promise<Graph>}
 */
export async function buildGraph(dir) {
  const result = await build({
    absWorkingDir: dir,
    entryPoints: ['cli.js', 'index.js'],
    bundle: true,
    splitting: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    outdir: join(dir, '.graph'),
    logLevel: 'silent',
  });
  return { dir, inputs: result.metafile.inputs };
}

/**
 * The files an entry loads: itself and what it imports, statically only (what loads at start)
 * or also through import() (everything it can load). Paths from the graph's folder.
 * @param {Graph} graph @param {string} entry @param {boolean} dynamic
 * @returns {string[]}
 */
export function closure(graph, entry, dynamic) {
  const seen = new Set([entry]);
  const queue = [entry];
  for (let file = queue.shift(); file !== undefined; file = queue.shift())
    for (const { path, kind, external } of graph.inputs[file]?.imports ?? []) {
      if (external || seen.has(path) || (!dynamic && kind === 'dynamic-import')) continue;
      seen.add(path);
      queue.push(path);
    }
  return [...seen];
}

/**
 * What `check` loads past its entry when there is no config file: the commands chunk and the
 * CLI's MCP SDK chunk (src/server/sdk.ts), absolute paths. The floor+load reference imports
 * these. Only the CLI's own: the action's build has chunks of the same names.
 * @param {Graph} graph @returns {string[]}
 */
export function loadedByCheck(graph) {
  return closure(graph, 'cli.js', true)
    .filter((file) => /^(commands|sdk)-.*\.js$/.test(basename(file)))
    .map((file) => join(graph.dir, file));
}

/**
 * The size of some of the graph's files, as the metafile counts it, and gzipped.
 * @param {Graph} graph @param {string[]} files @returns {string}
 */
export function sizeOf(graph, files) {
  const bytes = files.reduce((sum, f) => sum + (graph.inputs[f]?.bytes ?? 0), 0);
  const gz = files.reduce((sum, f) => sum + gzipSync(readFileSync(join(graph.dir, f))).length, 0);
  return `${kb(bytes)} (gzip ${kb(gz)})`;
}

/** Every JavaScript file of the build that either entry can load. @param {Graph} graph */
export const allModules = (graph) =>
  Object.keys(graph.inputs)
    .filter((f) => /\.m?js$/.test(f))
    .sort();
