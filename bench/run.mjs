#!/usr/bin/env node
// npm run bench [-- options]: whole-process benchmark of `mcp-annotation-auditor check`
// against a floor (bench/floor-lister.mjs) and the MCP Inspector CLI, on the same servers.
// Prints the tables and writes bench/RESULTS.md. See bench/README.md. Not part of the tests.
//
// The parts: lib/args.mjs (the command line), lib/setup.mjs (the workspace, the Inspector),
// lib/targets.mjs (what is measured, as data), lib/candidates.mjs (who audits a server),
// lib/measure.mjs and lib/rounds.mjs (timing processes), lib/stats.mjs, lib/graph.mjs (the
// build's modules, from esbuild's metafile), suites/ (each returns its rounds) and report/
// (each section a function of those).
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { HELP, parseBenchArgs, selected, UsageError } from './lib/args.mjs';
import { measurer } from './lib/measure.mjs';
import { BENCH, ROOT, setUp } from './lib/setup.mjs';
import { MANY_TOOLS, serversOf } from './lib/targets.mjs';
import { buildReport } from './report/page.mjs';
import { coldStart } from './suites/cold.mjs';
import { concurrencySuite } from './suites/concurrency.mjs';
import { fourServers } from './suites/four.mjs';
import { phaseSuite } from './suites/phases.mjs';
import { profileSuite } from './suites/profile.mjs';
import { auditServers } from './suites/servers.mjs';

const RESULTS = join(BENCH, 'RESULTS.md');

/** The options, or exit 2 with the refusal and the usage. */
function options() {
  try {
    return parseBenchArgs(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`bench: ${error.message}\n\n${HELP}`);
    process.exit(2);
  }
}

/** The workspace, or exit 2 when a build to measure is missing. @param {import('./lib/args.mjs').Options} opts */
async function workspace(opts) {
  try {
    return await setUp(opts);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`bench: ${error.message}`);
    process.exit(2);
  }
}

async function main() {
  const opts = options();
  if (opts.help) {
    console.log(HELP);
    return;
  }
  const started = performance.now();
  const startLoad = loadavg()[0] ?? 0;
  const b = await workspace(opts);
  const pace = {
    measure: measurer({ cwd: b.runDir, scratch: b.work, env: b.candidateEnv }),
    warmups: opts.warmups,
    runs: opts.runs,
    budgetMs: opts.budgetMs,
  };
  console.log(
    `mcp-annotation-auditor benchmark: Node ${process.version}, ${cpus()[0]?.model?.trim() ?? 'unknown'}, ${cpus().length} cores`,
  );
  const inspector =
    'skipped' in b.inspector
      ? b.inspector.skipped
      : `${b.inspector.version} on Node ${b.inspector.nodeVersion}`;
  console.log(`Inspector: ${inspector}`);
  console.log(`Synthetic server: ${relative(ROOT, MANY_TOOLS)}\n`);

  const wanted = (/** @type {string} */ id) => selected(opts, id);
  const list = serversOf(b.work, wanted);
  const servers = await auditServers(b, pace, list);
  const cold = wanted('cold') ? await coldStart(b, pace) : undefined;
  const four = wanted('four-servers') ? await fourServers(b, pace) : undefined;
  const concurrency = wanted('concurrency') ? await concurrencySuite(b, pace) : undefined;
  const profile = opts.profile ? await profileSuite(b, pace, list) : undefined;
  const phases = opts.profile ? await phaseSuite(b, pace, list) : undefined;

  const elapsedS = (performance.now() - started) / 1000;
  const { markdown, printed } = buildReport(b, {
    servers,
    cold,
    four,
    concurrency,
    profile,
    phases,
    startLoad,
    elapsedS,
  });
  writeFileSync(RESULTS, markdown);
  console.log(`\n${printed.join('\n')}`);
  console.log(`Wrote ${relative(ROOT, RESULTS)} (${elapsedS.toFixed(0)} s).`);
}

await main();
