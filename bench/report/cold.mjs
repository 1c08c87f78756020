// Cold start, and the bundles' sizes (from esbuild's metafile of the measured build).
import { closure, allModules, sizeOf } from '../lib/graph.mjs';
import { median, mib, ms, table } from '../lib/stats.mjs';

/**
 * @param {import('../lib/setup.mjs').Bench} b @param {import('../lib/rounds.mjs').Rounds} cold
 * @returns {import('./servers.mjs').Section}
 */
export function coldStart(b, cold) {
  const label = {
    node: `\`node -e 0\` (Node ${process.version} alone, for reference)`,
    nodeCa: `\`node -e 0\` with NODE_EXTRA_CA_CERTS as set here (removed everywhere else)`,
    node24: `\`node -e 0\` with the Inspector's Node ${'skipped' in b.inspector ? '' : b.inspector.nodeVersion}`,
    help: '`node dist/cli.js --help`',
    action: '`node dist/index.js` (no inputs)',
  };
  const rows = [...cold.results.values()].map((r) => [
    label[/** @type {keyof typeof label} */ (r.id)],
    ms(median(r.times)),
    ms(Math.min(...r.times)),
    ms(Math.max(...r.times)),
    [...r.codes].join(','),
    mib(r.rss.length ? Math.max(...r.rss) : undefined),
  ]);
  return {
    text: table(['process', 'median ms', 'min ms', 'max ms', 'exit', 'peak RSS MiB'], rows),
  };
}

/**
 * Each entry's own size, what it loads at start (static imports) and all it can load (import()
 * too), as esbuild's metafile of the measured build lists them.
 * @param {import('../lib/setup.mjs').Bench} b @returns {import('./servers.mjs').Section}
 */
export function bundles(b) {
  const { graph } = b;
  const rows = ['cli.js', 'index.js'].map((entry) => {
    const start = closure(graph, entry, false);
    const all = closure(graph, entry, true);
    return [
      `dist/${entry}`,
      sizeOf(graph, [entry]),
      `${sizeOf(graph, start)} (${start.length})`,
      `${sizeOf(graph, all)} (${all.length})`,
    ];
  });
  const every = allModules(graph);
  rows.push(['dist/ in all', '', '', `${sizeOf(graph, every)} (${every.length})`]);
  return {
    text: `${table(['bundle', 'entry file', 'loaded at start (files)', 'all it can load (files)'], rows)}
From esbuild's metafile of the measured copy (its inputs and their static and dynamic imports).
`,
  };
}
