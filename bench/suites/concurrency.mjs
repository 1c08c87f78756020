// What the default concurrency should be: four servers whose boot is a one-second wait, and four
// whose boot keeps a core busy for a second, each config audited at several concurrencies, next
// to one of its servers alone. Waiting boots gain from running all at once whatever the cores;
// busy ones cannot go faster than the cores allow, and must not get slower either.
import { audited } from '../lib/candidates.mjs';
import { runRounds } from '../lib/rounds.mjs';
import { CONCURRENCY } from '../lib/targets.mjs';
import { fleet } from './configs.mjs';

/**
 * @typedef {{ kind: 'wait' | 'burn', label: string, bench?: import('../lib/rounds.mjs').Rounds,
 *   setupError?: string }} Kind
 * @typedef {{ levels: number[], byDefault: number, servers: number, waitMs: number,
 *   burnMs: number, kinds: Kind[] }} ConcurrencyRun
 */

/**
 * @param {import('../lib/setup.mjs').Bench} b @param {import('../lib/rounds.mjs').Pace} pace
 * @returns {Promise<ConcurrencyRun>}
 */
export async function concurrencySuite(b, pace) {
  const plan = CONCURRENCY();
  const names = Array.from({ length: plan.servers }, (_, i) => `c${i + 1}`);
  const kinds = /** @type {const} */ ([
    ['wait', `boot waits ${plan.waitMs} ms`, ['--boot-ms', String(plan.waitMs)]],
    ['burn', `boot keeps a core busy ${plan.burnMs} ms`, ['--burn-ms', String(plan.burnMs)]],
  ]);
  /** @type {Kind[]} */
  const out = [];
  for (const [kind, label, args] of kinds) {
    const servers = await fleet(b, pace, `concurrency-${kind}`, names, [...args]);
    if ('setupError' in servers) {
      out.push({ kind, label, setupError: servers.setupError });
      continue;
    }
    /** @type {import('../lib/candidates.mjs').Candidate[]} */
    const candidates = [
      { id: 'alone', argv: servers.check(['--server', names[0] ?? 'c1']), ok: audited },
      ...plan.levels.map((n) => ({
        id: `c${n}`,
        argv: servers.check(['--concurrency', String(n)]),
        ok: audited,
      })),
    ];
    out.push({ kind, label, bench: await runRounds(pace, `concurrency, ${kind}`, candidates) });
  }
  return { ...plan, kinds: out };
}
