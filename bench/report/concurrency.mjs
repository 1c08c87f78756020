// The default concurrency: each config of four servers audited at each candidate concurrency,
// as a multiple of one of its servers alone (1.0: all four in the time of one).
import { relative } from 'node:path';
import { ROOT } from '../lib/setup.mjs';
import { ms, pairedRatio, ratio, table } from '../lib/stats.mjs';
import { SLOW_BOOT } from '../lib/targets.mjs';
import { medianTime } from './servers.mjs';

/** @param {import('../suites/concurrency.mjs').ConcurrencyRun} run @returns {import('./servers.mjs').Section} */
export function concurrency(run) {
  const header = [
    `${run.servers} servers, boot`,
    'warm-up+runs',
    'one alone ms',
    ...run.levels.flatMap((n) => [
      `concurrency ${n}${n === run.byDefault ? ' (default)' : ''} ms`,
      `${n}: × one alone`,
    ]),
  ];
  /** @type {string[]} */
  const notes = [];
  const rows = run.kinds.map(({ kind, label, bench, setupError }) => {
    if (!bench) {
      notes.push(`concurrency, ${kind}: not measured, ${setupError ?? 'no rounds'}`);
      return [label, 'not run'];
    }
    for (const r of bench.results.values())
      if (r.failed)
        notes.push(
          `concurrency, ${kind}: ${r.id} failed after ${ms(r.failedMs ?? NaN)} ms, ${r.failed}`,
        );
    return [
      label,
      `${bench.warmups}+${bench.runs}`,
      ms(medianTime(bench, 'alone')),
      ...run.levels.flatMap((n) => [
        ms(medianTime(bench, `c${n}`)),
        ratio(pairedRatio(bench.rounds, `c${n}`, 'alone')),
      ]),
    ];
  });
  return {
    notes,
    text: `${table(header, rows)}
Each cell is \`check --concurrency N\` on one config file of ${run.servers} servers
(\`${relative(ROOT, SLOW_BOOT)}\`): one whose start-up waits ${run.waitMs} ms (\`--boot-ms\`), as a
server that loads and connects does, and one whose start-up keeps a core busy for ${run.burnMs} ms
of CPU (\`--burn-ms\`). "× one alone" is the median of per-round ratios to \`--server c1\` alone.
`,
  };
}
