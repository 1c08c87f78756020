// RESULTS.md as a whole: the machine, then each section the suites produced, in a fixed order,
// then the commands. A function of the suites' returned values; nothing is shared between them.
import { cpus, loadavg, release, totalmem } from 'node:os';
import { relative } from 'node:path';
import { BURN_MS } from '../lib/candidates.mjs';
import { ROOT } from '../lib/setup.mjs';
import { table } from '../lib/stats.mjs';
import { FOUR, MANY_TOOLS, SLOW_BOOT } from '../lib/targets.mjs';
import { bundles, coldStart } from './cold.mjs';
import { concurrency } from './concurrency.mjs';
import { fourAtOnce } from './four.mjs';
import { growth } from './growth.mjs';
import { phaseSection } from './phases.mjs';
import { profileSections } from './profile.mjs';
import {
  againstBaseline,
  cpuCost,
  everyCandidate,
  headline,
  serverTargets,
  whereItGoes,
} from './servers.mjs';

/**
 * @typedef {import('../lib/setup.mjs').Bench} Bench
 * @typedef {{ servers: import('../suites/servers.mjs').ServerRun[],
 *   cold?: import('../lib/rounds.mjs').Rounds, four?: import('../suites/four.mjs').FourRun,
 *   concurrency?: import('../suites/concurrency.mjs').ConcurrencyRun,
 *   profile?: import('../suites/profile.mjs').ProfileRun,
 *   phases?: import('../suites/phases.mjs').PhaseRow[],
 *   startLoad: number, elapsedS: number }} Results
 */

/** The lines about the machine and the build. @param {Bench} b @param {Results} r */
function machine(b, r) {
  const { opts } = b;
  const cores = cpus().length;
  const loadEnd = loadavg()[0] ?? 0;
  const inspector = b.inspector;
  const busy = Math.max(r.startLoad, loadEnd) > cores * 0.75;
  return [
    `- Date: ${new Date().toISOString()}`,
    `- Node: ${process.version} (floor, ours and every server); Inspector on ${'skipped' in inspector ? 'n/a' : `Node ${inspector.nodeVersion}`}`,
    `- CPU: ${cpus()[0]?.model?.trim() ?? 'unknown'}, ${cores} cores; memory ${(totalmem() / 2 ** 30).toFixed(0)} GiB; ${process.platform} ${release()}`,
    `- Load average (1 min) at start and end: ${r.startLoad.toFixed(2)}, ${loadEnd.toFixed(2)} on ${cores} cores${busy ? ' (other work competed for the CPU: expect noise)' : ''}`,
    ...(b.extraCa
      ? [
          '- NODE_EXTRA_CA_CERTS is set in this environment and was removed from every measured process (Node 20 loads it at each start: see the cold start)',
        ]
      : []),
    `- Inspector: ${'skipped' in inspector ? inspector.skipped : `@modelcontextprotocol/inspector ${inspector.version}`}`,
    `- Synthetic server: \`${relative(ROOT, MANY_TOOLS)}\` (pages of 100)`,
    ...(opts.baseline
      ? [`- Baseline (--baseline): the build in ${opts.baseline}, copied at the start too`]
      : []),
    `- Bundles: ${opts.dist ? `a build in ${opts.dist} (--dist), with the source` : 'dist/'} at ${b.gitHead || 'an unknown commit'}${!opts.dist && b.distDirty ? ' with uncommitted changes' : ''}, copied at the start and measured from the copy (fingerprint ${b.fingerprint})`,
    `- Rounds: up to ${opts.warmups} warm-up (these measure peak RSS) and ${opts.runs} timed per server (fewer to fit ${opts.budgetMs / 1000} s per server: at least 3, or 2 when one round takes over half of that); benchmark took ${r.elapsedS.toFixed(0)} s`,
  ].join('\n');
}

/** How each candidate was run. @param {Bench} b @param {Results} r */
function commands(b, r) {
  const server = '<server>';
  const rel = (/** @type {string} */ a) => relative(ROOT, a) || '.';
  const inspector = b.inspector;
  return [
    `floor:     node bench/floor-lister.mjs ${server}`,
    `floorLoad: FLOOR_LOAD=<the modules check loads> node bench/floor-lister.mjs ${server}   (reference only; servers that boot)`,
    `floorBurn: FLOOR_BURN=${BURN_MS} node bench/floor-lister.mjs ${server}   (reference only; servers that boot)`,
    `floorPinned, oursPinned: taskset -c 1 <floor or ours, with the server command as taskset -c 0 ${server}>   (reference only; servers that boot)`,
    `ours:      node dist/cli.js check --class-list <tmp>/<id>.classes.json -- ${server}`,
    `           (class list written first, untimed, by: node dist/cli.js update --class-list <tmp>/<id>.classes.json -- ${server})`,
    `action:    INPUT_COMMAND='${server}' INPUT_CLASS-LIST=<tmp>/<id>.classes.json GITHUB_EVENT_PATH=<a push event> ... node dist/index.js   (reference only)`,
    'skipped' in inspector
      ? `Inspector: ${inspector.skipped}`
      : `Inspector: ${rel(inspector.node)} ${rel(inspector.launcher)} --cli --method tools/list ${server}`,
    ...(b.node24
      ? [
          `ours24:    ${rel(b.node24)} dist/cli.js check --class-list <tmp>/<id>.classes.json -- ${server}   (reference only)`,
        ]
      : []),
    '',
    "servers (<server>, every one started with the benchmark's own node by absolute path):",
    ...(r.four
      ? [
          `  four-servers ${FOUR.names.length} × node ${rel(SLOW_BOOT)} --boot-ms ${FOUR.bootMs} --name sN, in one config file`,
        ]
      : []),
    ...(r.concurrency
      ? [
          `  concurrency  ${r.concurrency.servers} × node ${rel(SLOW_BOOT)} --boot-ms ${r.concurrency.waitMs} (or --burn-ms ${r.concurrency.burnMs}) --name cN, in one config file, check --concurrency N`,
        ]
      : []),
    ...r.servers.map(
      ({ server: s }) =>
        `  ${s.id.padEnd(11)} ${s.cmd.map((a, i) => (i === 0 ? 'node' : a.startsWith(b.work) ? `<tmp>${a.slice(b.work.length)}` : relative(ROOT, a) || a)).join(' ')}`,
    ),
  ].join('\n');
}

/**
 * RESULTS.md, and the parts printed to the terminal.
 * @param {Bench} b @param {Results} r @returns {{ markdown: string, printed: string[] }}
 */
export function buildReport(b, r) {
  const head = headline(b, r.servers);
  const split = whereItGoes(b, r.servers);
  const burn = cpuCost(r.servers);
  const four = r.four ? fourAtOnce(r.four) : { text: '' };
  const conc = r.concurrency ? concurrency(r.concurrency) : { text: '' };
  const base = againstBaseline(b, r.servers);
  const grow = growth(r.servers);
  const cold = r.cold ? coldStart(b, r.cold) : { text: '' };
  const bundle = bundles(b);
  const targets = [
    ...(base.targets ?? []),
    ...serverTargets(b, r.servers),
    ...(four.targets ?? []),
    ...(grow.targets ?? []),
  ];
  const notes = [...(head.notes ?? []), ...(four.notes ?? []), ...(conc.notes ?? [])];
  const targetsTable = targets.length
    ? table(['target', 'limit', 'measured', 'result'], targets)
    : 'No target was measured in this run.\n';
  const section = (/** @type {string} */ title, /** @type {string} */ text) =>
    text ? `## ${title}\n\n${text}\n` : '';
  const profile = r.profile ? profileSections(r.profile) : '';
  const phases = r.phases ? phaseSection(r.phases) : '';
  const markdown = `# Benchmark results

Written by \`npm run bench\` (bench/run.mjs); see bench/README.md for how to read it.

${machine(b, r)}

## Audit of one server (medians; ratios are medians of per-round ratios)

${head.text || 'Not measured (--only left out every single server).\n'}
${notes.length ? `Notes:\n\n${notes.map((n) => `- ${n}`).join('\n')}\n\n` : ''}${section('Where ours − floor goes', split.text)}${section("What CPU costs the server's boot", burn.text)}${section('Four servers at once', four.text)}${section('Default concurrency', conc.text)}${section('Against the baseline', base.text)}## Targets

${targetsTable}
## Growth with the number of tools (synthetic server)

${grow.text || 'Not measured (run without --only, or include many-100,many-1000,many-10000).\n'}
## Cold start

${cold.text || 'Not measured.\n'}
## Bundles

${bundle.text}
## Every candidate

${everyCandidate(r.servers).text}
## Commands

\`\`\`
${commands(b, r)}
\`\`\`
${phases ? `\n${phases}` : ''}${profile ? `\n${profile}` : ''}`;
  const printed = [
    head.text,
    notes.map((n) => `note: ${n}`).join('\n'),
    split.text,
    burn.text,
    four.text,
    conc.text,
    base.text,
    targetsTable,
    grow.text,
    cold.text,
    bundle.text,
    phases,
    profile,
  ].filter(Boolean);
  return { markdown, printed };
}
