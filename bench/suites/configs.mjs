// Config files of several servers, for the suites that audit them together: each written to the
// workspace with its class list made by `update` first (untimed).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NODE } from '../lib/setup.mjs';
import { lastLines } from '../lib/stats.mjs';
import { SLOW_BOOT } from '../lib/targets.mjs';

/**
 * @typedef {{ check: (extra?: string[]) => string[], config: string, classList: string }} Fleet
 */

/**
 * A config file of `names.length` slow-boot servers (each run with `args`), and the class list
 * its update wrote. JSON is YAML too.
 * @param {import('../lib/setup.mjs').Bench} b @param {import('../lib/rounds.mjs').Pace} pace
 * @param {string} id @param {string[]} names @param {string[]} args
 * @param {{ concurrency?: number }} [keys] top-level keys of the file
 * @returns {Promise<Fleet | { setupError: string }>}
 */
export async function fleet(b, pace, id, names, args, keys = {}) {
  const servers = Object.fromEntries(
    names.map((name) => [name, { command: NODE, args: [SLOW_BOOT, ...args, '--name', name] }]),
  );
  const config = join(b.work, `${id}.yml`);
  writeFileSync(config, JSON.stringify({ ...keys, servers }));
  const classList = join(b.runDir, `${id}.classes.json`);
  const base = [NODE, b.cli, 'check', '--config', config, '--class-list', classList];
  const update = await pace.measure([
    NODE,
    b.cli,
    'update',
    '--config',
    config,
    '--class-list',
    classList,
  ]);
  if (update.code !== 0)
    return {
      setupError: `update failed (exit ${update.code}): ${lastLines(update.stderr || update.stdout)}`,
    };
  return { config, classList, check: (extra = []) => [...base, ...extra] };
}
