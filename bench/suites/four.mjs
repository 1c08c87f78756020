// Four servers in one config file, each about a second to boot (mostly waiting, as a real
// server's start-up is): audited at once, one after another, at the default, and each alone.
import { audited } from '../lib/candidates.mjs';
import { runRounds } from '../lib/rounds.mjs';
import { DEFAULT_CONCURRENCY, FOUR } from '../lib/targets.mjs';
import { fleet } from './configs.mjs';

/**
 * @typedef {{ bench?: import('../lib/rounds.mjs').Rounds, setupError?: string,
 *   defaultConcurrency: number }} FourRun
 */

/**
 * @param {import('../lib/setup.mjs').Bench} b @param {import('../lib/rounds.mjs').Pace} pace
 * @returns {Promise<FourRun>}
 */
export async function fourServers(b, pace) {
  const defaultConcurrency = DEFAULT_CONCURRENCY();
  const args = ['--boot-ms', String(FOUR.bootMs)];
  const withFour = await fleet(b, pace, 'four-servers', FOUR.names, args, {
    concurrency: FOUR.names.length,
  });
  if ('setupError' in withFour) return { setupError: withFour.setupError, defaultConcurrency };
  // The same servers with no concurrency key: the default. Its own class list is the same.
  const byDefault = await fleet(b, pace, 'four-servers-default', FOUR.names, args);
  if ('setupError' in byDefault) return { setupError: byDefault.setupError, defaultConcurrency };
  /** @type {import('../lib/candidates.mjs').Candidate[]} */
  const candidates = [
    { id: 'ours', argv: withFour.check(), ok: audited },
    { id: 'sequential', argv: withFour.check(['--concurrency', '1']), ok: audited },
    { id: 'default', argv: byDefault.check(), ok: audited },
    ...FOUR.names.map((name) => ({
      id: `alone-${name}`,
      argv: withFour.check(['--server', name]),
      ok: audited,
    })),
  ];
  return { bench: await runRounds(pace, 'four servers', candidates), defaultConcurrency };
}
