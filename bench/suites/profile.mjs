// --profile: where ours spends its time. A CPU profile of `check` (the functions with the most
// self time) from a build that keeps its names, and when each candidate starts the server.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { candidatesFor, checkArgv, classListOf } from '../lib/candidates.mjs';
import { NODE, ROOT } from '../lib/setup.mjs';
import { median } from '../lib/stats.mjs';

/**
 * @typedef {import('../lib/setup.mjs').Bench} Bench
 * @typedef {import('../lib/rounds.mjs').Pace} Pace
 * @typedef {import('../lib/targets.mjs').Server} Server
 * @typedef {{ label: string, wallMs: number, sampledMs: number, self: [string, number][],
 *   file: string }} CpuProfile
 * @typedef {{ server: string, candidate: string, leadMs: number, totalMs: number }} Lead
 * @typedef {{ profiles: CpuProfile[], leads: Lead[], readable: string }} ProfileRun
 */

/**
 * A build of the same source that keeps its names (dist/ minifies them), in the workspace.
 * @param {Bench} b @returns {string} its folder
 */
export function readableBuild(b) {
  const readable = join(b.work, 'readable-dist');
  if (existsSync(join(readable, 'cli.js'))) return readable;
  const built = spawnSync(NODE, [join(ROOT, 'scripts/build.mjs'), '--readable', readable], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`readable build failed: ${built.stderr}`);
  return readable;
}

/**
 * Self time per function of a .cpuprofile, ms, most first, and the total sampled.
 * @param {string} file @returns {{ total: number, self: [string, number][] }}
 */
export function selfTimes(file) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  /** @type {Map<number, any>} */
  const nodes = new Map(profile.nodes.map((/** @type {any} */ x) => [x.id, x]));
  /** @type {Map<string, number>} */
  const self = new Map();
  let total = 0;
  profile.samples.forEach((/** @type {number} */ id, /** @type {number} */ i) => {
    const frame = nodes.get(id).callFrame;
    const where = frame.url ? `${frame.url.split('/').pop()}:${frame.lineNumber + 1}` : '';
    const key = `${frame.functionName || '(anonymous)'}${where ? ` (${where})` : ''}`;
    const dt = (profile.timeDeltas[i] ?? 0) / 1000;
    self.set(key, (self.get(key) ?? 0) + dt);
    total += dt;
  });
  return { total, self: [...self].sort((x, y) => y[1] - x[1]) };
}

/**
 * `node --cpu-prof` of one `check` run of the readable build; the profile's path, kept.
 * @param {Bench} b @param {Pace} pace @param {string} readable @param {Server} server
 * @param {string} dir a folder of its own, emptied first
 */
export async function cpuProfile(b, pace, readable, server, dir) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const check = checkArgv(join(readable, 'cli.js'), classListOf(b, server), server.cmd);
  const sample = await pace.measure([
    NODE,
    '--cpu-prof',
    `--cpu-prof-dir=${dir}`,
    ...check.slice(1),
  ]);
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  return file ? { wallMs: sample.ms, file: join(dir, file) } : undefined;
}

/**
 * When does each candidate start the server? A stamp hook in the server's node records the
 * server process's start time; its distance from our spawn of the candidate is the lead time.
 * @param {Bench} b @param {Pace} pace @param {Server} server @returns {Promise<Lead[]>}
 */
async function leads(b, pace, server) {
  const stampFile = join(b.work, 'server-start.txt');
  const hook = join(b.work, 'stamp.mjs');
  writeFileSync(
    hook,
    `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(stampFile)}, String(performance.timeOrigin));\n`,
  );
  // The class list written for the server is the same for the stamped command.
  const stamped = {
    ...server,
    cmd: [NODE, '--import', pathToFileURL(hook).href, ...server.cmd.slice(1)],
  };
  const list = candidatesFor(b, stamped);
  /** @type {Map<string, { lead: number[], total: number[] }>} */
  const times = new Map(list.map((c) => [c.id, { lead: [], total: [] }]));
  for (let round = 0; round < 5; round += 1)
    for (const c of list) {
      rmSync(stampFile, { force: true });
      const spawnedAt = performance.timeOrigin + performance.now();
      const sample = await pace.measure(c.argv, { env: c.env });
      if (!c.ok(sample.code, sample.stdout) || !existsSync(stampFile) || round === 0) continue;
      const t = times.get(c.id);
      t?.lead.push(Number(readFileSync(stampFile, 'utf8')) - spawnedAt);
      t?.total.push(sample.ms);
    }
  return list.map((c) => ({
    server: server.label,
    candidate: c.id,
    leadMs: median(times.get(c.id)?.lead ?? []),
    totalMs: median(times.get(c.id)?.total ?? []),
  }));
}

/**
 * The --profile suite over the servers this run measured (their class lists written).
 * @param {Bench} b @param {Pace} pace @param {Server[]} servers @returns {Promise<ProfileRun>}
 */
export async function profileSuite(b, pace, servers) {
  const readable = readableBuild(b);
  const ready = servers.filter((s) => existsSync(classListOf(b, s)));
  /** @type {CpuProfile[]} */
  const profiles = [];
  for (const server of ready.filter((s) =>
    ['example', 'filesystem', 'many-100', 'many-10000'].includes(s.id),
  )) {
    const run = await cpuProfile(b, pace, readable, server, join(b.work, 'profiles', server.id));
    if (!run) continue;
    const { total, self } = selfTimes(run.file);
    profiles.push({
      label: server.label,
      wallMs: run.wallMs,
      sampledMs: total,
      self,
      file: run.file,
    });
  }
  /** @type {Lead[]} */
  const all = [];
  for (const server of ready.filter((s) => ['example', 'filesystem', 'many-100'].includes(s.id)))
    all.push(...(await leads(b, pace, server)));
  return { profiles, leads: all, readable };
}
