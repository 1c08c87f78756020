#!/usr/bin/env node
// The per-phase CPU table of `check` alone, without the rest of the benchmark:
//   node bench/phase-table.mjs [--readable DIR] [--profiles N] [SIZE...]
// For each size (default 100 and 10,000 synthetic tools, pages of 100), `update` writes the class
// list, then N (default 3) `node --cpu-prof` runs of `check` from a readable build (DIR, made by
// `node scripts/build.mjs --readable DIR`; built into a temporary folder from src/ when not
// given) are split into phases as `npm run bench -- --profile` splits them (PHASES in
// bench/suites/phases.mjs), and the medians printed as a markdown table. Not part of the tests.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { median } from './lib/stats.mjs';
import { PHASES_IN_ORDER, phasesOf } from './suites/phases.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const SERVER = join(ROOT, 'test/fixtures/servers/many-tools.mjs');

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { readable: { type: 'string' }, profiles: { type: 'string', default: '3' } },
});
const sizes = (positionals.length ? positionals : ['100', '10000']).map(Number);
const profiles = Number(values.profiles);
const work = mkdtempSync(join(tmpdir(), 'auditor-phases-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
writeFileSync(join(work, 'package.json'), '{"type":"module"}\n');
const readable = values.readable ? resolve(values.readable) : join(work, 'readable');
if (!values.readable) {
  const built = spawnSync(
    process.execPath,
    [join(ROOT, 'scripts/build.mjs'), '--readable', readable],
    {
      cwd: ROOT,
      encoding: 'utf8',
    },
  );
  if (built.status !== 0) throw new Error(`readable build failed: ${built.stderr}`);
}
const cli = join(readable, 'cli.js');
// As the benchmark runs every candidate: in a folder of its own, without NODE_EXTRA_CA_CERTS.
const env = { ...process.env };
delete env.NODE_EXTRA_CA_CERTS;
const run = (/** @type {string[]} */ args) =>
  spawnSync(process.execPath, args, { cwd: work, env, encoding: 'utf8', maxBuffer: 1 << 27 });

/** @type {{ tools: number, phases: Map<string, number> }[]} */
const columns = [];
for (const tools of sizes) {
  const server = [process.execPath, SERVER, String(tools), '100'];
  const list = `many-${tools}.classes.json`;
  const update = run([cli, 'update', '--class-list', list, '--', ...server]);
  if (update.status !== 0) throw new Error(`update failed at ${tools} tools: ${update.stderr}`);
  /** @type {Map<string, number>[]} */
  const runs = [];
  for (let i = 0; i < profiles; i += 1) {
    const dir = join(work, `profile-${tools}-${i}`);
    mkdirSync(dir);
    run([
      '--cpu-prof',
      `--cpu-prof-dir=${dir}`,
      cli,
      'check',
      '--class-list',
      list,
      '--',
      ...server,
    ]);
    const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
    if (file) runs.push(phasesOf(join(dir, file)));
  }
  const names = new Set([...PHASES_IN_ORDER(), ...runs.flatMap((r) => [...r.keys()])]);
  columns.push({
    tools,
    phases: new Map([...names].map((name) => [name, median(runs.map((r) => r.get(name) ?? 0))])),
  });
}

const head = [
  'phase',
  ...columns.flatMap((c) => [`${c.tools.toLocaleString('en')} tools ms`, 'share']),
];
const lines = [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`];
const total = (/** @type {Map<string, number>} */ phases) =>
  [...phases.values()].reduce((a, b) => a + b, 0);
for (const name of columns[0]?.phases.keys() ?? []) {
  const cells = columns.flatMap((c) => {
    const ms = c.phases.get(name) ?? 0;
    return [ms.toFixed(1), `${((100 * ms) / total(c.phases)).toFixed(1)} %`];
  });
  lines.push(`| ${name} | ${cells.join(' | ')} |`);
}
lines.push(
  `| sampled in all | ${columns.flatMap((c) => [total(c.phases).toFixed(0), '']).join(' | ')} |`,
);
console.log(lines.join('\n'));
console.log(
  `\nload average (1 min) at the end: ${loadavg()[0]?.toFixed(2)}; ${profiles} profiles a size, medians`,
);
