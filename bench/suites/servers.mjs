// The audit of one server at a time: for each server, the class lists written first (untimed),
// then rounds of every candidate.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { baseClassListOf, candidatesFor, classListOf } from '../lib/candidates.mjs';
import { runRounds } from '../lib/rounds.mjs';
import { NODE } from '../lib/setup.mjs';
import { lastLines } from '../lib/stats.mjs';

/**
 * @typedef {import('../lib/setup.mjs').Bench} Bench
 * @typedef {import('../lib/rounds.mjs').Pace} Pace
 * @typedef {import('../lib/targets.mjs').Server} Server
 * @typedef {{ server: Server, bench: import('../lib/rounds.mjs').Rounds, setupError?: string,
 *   notes: string[] }} ServerRun
 */

/**
 * `update` of one build on this server into a class list: the list `check` then compares with.
 * @param {Pace} pace @param {string} cli @param {string} classList @param {Server} server
 * @returns {Promise<string | undefined>} why it failed
 */
async function update(pace, cli, classList, server) {
  const run = await pace.measure([
    NODE,
    cli,
    'update',
    '--class-list',
    classList,
    '--',
    ...server.cmd,
  ]);
  if (run.code === 0 && existsSync(classList)) return undefined;
  return `update failed (exit ${run.code}): ${lastLines(run.stderr || run.stdout)}`;
}

/**
 * One server's rounds.
 * @param {Bench} b @param {Pace} pace @param {Server} server @returns {Promise<ServerRun>}
 */
async function auditOne(b, pace, server) {
  const setupError = await update(pace, b.cli, classListOf(b, server), server);
  if (setupError) {
    console.log(`  ${server.id}: ${setupError}`);
    const candidates = candidatesFor(b, server).filter((c) => c.id !== 'ours');
    return { server, setupError, notes: [], bench: await runRounds(pace, server.id, candidates) };
  }
  /** @type {string[]} */
  const notes = [];
  const baseError = b.baseline
    ? await update(pace, join(b.baseline, 'cli.js'), baseClassListOf(b, server), server)
    : undefined;
  if (baseError) notes.push(`${server.label}: the baseline not run, its ${baseError}`);
  const recorded = Object.keys(
    JSON.parse(readFileSync(classListOf(b, server), 'utf8')).tools,
  ).length;
  const candidates = candidatesFor(b, server, { baselineFailed: baseError !== undefined });
  const bench = await runRounds(pace, server.id, candidates);
  for (const id of ['ours', 'ours24']) {
    const result = bench.results.get(id);
    if (result) result.tools = recorded;
  }
  return { server, notes, bench };
}

/**
 * Every server's rounds, one server after the other.
 * @param {Bench} b @param {Pace} pace @param {Server[]} servers @returns {Promise<ServerRun[]>}
 */
export async function auditServers(b, pace, servers) {
  const runs = [];
  for (const server of servers) runs.push(await auditOne(b, pace, server));
  return runs;
}
