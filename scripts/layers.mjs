// The layers of src/ and what each may import: the one table that eslint.config.mjs turns into
// no-restricted-imports rules (a wrong arrow fails `npm run lint`) and that scripts/imports.mjs
// checks the built import graph against (docs/contributing.md draws the same picture).
// Data flows one way, server -> tools -> findings -> report -> sinks; a layer imports only the
// layers listed in its `may` (and its own files), never one above it.

/**
 * Each layer: a folder of src/ (every file under it), or a named set of top-level files of src/.
 * Order is bottom to top; a layer's `may` names only layers before it.
 */
export const LAYERS = [
  {
    name: 'shared',
    files: [
      'compile-cache.ts',
      'errors.ts',
      'escape.ts',
      'heap.ts',
      'lazy.ts',
      'pool.ts',
      'redact.ts',
      'trusted.ts',
      'version.ts',
      'zod.ts',
    ],
    may: [],
    why: 'leaves every layer uses: they import only each other',
  },
  { name: 'core', folder: 'core', may: ['shared'], why: 'pure: tools -> findings' },
  { name: 'clients', folder: 'clients', may: ['core', 'shared'], why: 'pure: plain data out' },
  {
    name: 'report',
    folder: 'report',
    may: ['clients', 'core', 'shared'],
    why: 'pure: findings -> report, in every format',
  },
  { name: 'server', folder: 'server', may: ['core', 'shared'], why: 'reaches and lists a server' },
  {
    name: 'io',
    files: ['confined.ts', 'files.ts', 'git.ts'],
    may: ['server', 'report', 'clients', 'core', 'shared'],
    why: 'files and git, for config/ and the sinks',
  },
  {
    name: 'config',
    folder: 'config',
    may: ['io', 'server', 'clients', 'core', 'shared'],
    why: 'settings from files, inputs and the command line',
  },
  {
    name: 'audit',
    files: ['audit.ts', 'audit-clients.ts', 'audit-justifications.ts'],
    may: ['config', 'io', 'server', 'report', 'clients', 'core', 'shared'],
    why: 'the orchestrator: runs the steps for every server',
  },
  {
    name: 'cli',
    folder: 'cli',
    may: ['audit', 'config', 'io', 'server', 'report', 'clients', 'core', 'shared'],
    why: 'the command line; never action/',
  },
  {
    name: 'action',
    folder: 'action',
    may: ['audit', 'config', 'io', 'server', 'report', 'clients', 'core', 'shared'],
    why: 'the GitHub Action; never cli/',
  },
  {
    name: 'entries',
    files: ['cli.ts', 'index.ts', 'last-resort.ts'],
    may: [
      'cli',
      'action',
      'audit',
      'config',
      'io',
      'server',
      'report',
      'clients',
      'core',
      'shared',
    ],
    why: 'the two entries, dist/cli.js and dist/index.js',
  },
];

/** The layer of a path relative to src/ ('core/rules.ts', 'audit.ts'), or undefined. */
export function layerOf(path) {
  const slash = path.indexOf('/');
  return LAYERS.find((layer) =>
    slash < 0 ? layer.files?.includes(path) : layer.folder === path.slice(0, slash),
  );
}

/**
 * What is wrong with an import graph of src/ (`edges`: [from, to] paths relative to src/):
 * files no layer holds, imports of a layer not in the importer's `may`, and import cycles (each
 * set of files that import each other round, once: its files, and one circle through them).
 */
export function layerProblems(edges) {
  const files = [...new Set(edges.flat())].sort();
  const unplaced = files.filter((path) => !layerOf(path));
  const upward = edges
    .filter(([from, to]) => {
      const a = layerOf(from);
      const b = layerOf(to);
      return a && b && a !== b && !a.may.includes(b.name);
    })
    .map(
      ([from, to]) => `${from} -> ${to} (${layerOf(from).name} may not import ${layerOf(to).name})`,
    )
    .sort();
  const cycles = cyclesOf(files, edges).map((cycle) => ({
    files: cycle,
    circle: circleIn(cycle, edges),
  }));
  return { unplaced, upward, cycles };
}

/** One circle through a component's first file, as the files in import order, back to the first. */
function circleIn(component, edges) {
  const inside = new Set(component);
  const start = component[0];
  const cameFrom = new Map();
  const queue = [start];
  while (queue.length) {
    const node = queue.shift();
    for (const [from, to] of edges) {
      if (from !== node || !inside.has(to)) continue;
      if (to === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(cameFrom.get(path[0]));
        return [...path, start];
      }
      if (!cameFrom.has(to)) {
        cameFrom.set(to, node);
        queue.push(to);
      }
    }
  }
  return component;
}

/** The strongly connected components of more than one file (or a file importing itself). */
function cyclesOf(files, edges) {
  const next = new Map(files.map((f) => [f, []]));
  for (const [from, to] of edges) next.get(from).push(to);
  // Tarjan's algorithm, iterative: a deep graph cannot overflow the stack.
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const cycles = [];
  let counter = 0;
  for (const root of files) {
    if (index.has(root)) continue;
    const work = [[root, 0]];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length) {
      const top = work[work.length - 1];
      const [node, i] = top;
      const out = next.get(node);
      if (i < out.length) {
        top[1]++;
        const to = out[i];
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          work.push([to, 0]);
        } else if (onStack.has(to)) low.set(node, Math.min(low.get(node), index.get(to)));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(node)));
      }
      if (low.get(node) !== index.get(node)) continue;
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || out.includes(node)) cycles.push(component.sort());
    }
  }
  return cycles.sort((a, b) => a[0].localeCompare(b[0]));
}

/** The deepest folder below a layer's folder that lintBlocks writes a rule for. */
const MAX_DEPTH = 4;

const escapeRegex = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const label = (layer) =>
  layer.folder ? `${layer.folder}/` : `${layer.name} (${layer.files.join(', ')})`;

/**
 * ESLint config blocks, one per layer and depth below src/, that fail an import of a layer the
 * layer may not import: no-restricted-imports for `import` and `export … from` (type-only ones
 * too), no-restricted-syntax for `import()` and `typeof import()`. A path is matched as written,
 * relative to the file, so each depth gets its own patterns (`../config/` from src/core/a.ts,
 * `../../config/` from src/core/rules/a.ts).
 */
export function lintBlocks() {
  const blocks = [];
  for (const layer of LAYERS) {
    const banned = LAYERS.filter((other) => other !== layer && !layer.may.includes(other.name));
    if (!banned.length) continue;
    const depths = layer.folder ? Array.from({ length: MAX_DEPTH }, (_, i) => i + 1) : [0];
    for (const depth of depths) {
      const toSrc = depth ? `(\\.\\./){${depth}}` : '\\./';
      const patterns = banned.map((other) => {
        const targets = other.folder
          ? [`${escapeRegex(other.folder)}/`]
          : other.files.map((file) => `${escapeRegex(file.replace(/\.ts$/, '.js'))}$`);
        return {
          regex: `^${toSrc}(${targets.join('|')})`,
          message: `${label(layer)} may not import ${label(other)}: ${layer.name} may import ${layer.may.join(', ') || 'only the other shared leaves'} (scripts/layers.mjs). Move what both need down a layer, or the caller up.`,
        };
      });
      // esquery's regular expressions cannot hold a '/': \x2F stands for it.
      const selectors = patterns.flatMap(({ regex, message }) => {
        const value = `/${regex.replaceAll('/', '\\x2F')}/`;
        return [
          { selector: `ImportExpression[source.value=${value}]`, message },
          { selector: `TSImportType[argument.literal.value=${value}]`, message },
        ];
      });
      blocks.push({
        files: layer.folder
          ? [`src/${layer.folder}/${'*/'.repeat(depth - 1)}*.ts`]
          : layer.files.map((file) => `src/${file}`),
        rules: {
          'no-restricted-imports': ['error', { patterns }],
          'no-restricted-syntax': ['error', ...selectors],
        },
      });
    }
  }
  return blocks;
}
