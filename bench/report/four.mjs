// Four servers at once: ours against the slowest and the sum of the four audited alone, per round.
import { relative } from 'node:path';
import { ROOT } from '../lib/setup.mjs';
import { median, ms, pairedRatio, ratio, ratio3, table, verdict } from '../lib/stats.mjs';
import { FOUR, LIMITS, SLOW_BOOT } from '../lib/targets.mjs';
import { medianTime } from './servers.mjs';

/** @param {import('../suites/four.mjs').FourRun} four @returns {import('./servers.mjs').Section} */
export function fourAtOnce(four) {
  if (four.setupError) return { text: `Not measured: ${four.setupError}\n` };
  const b = four.bench;
  if (!b) return { text: '' };
  const alone = FOUR.names.map((name) => `alone-${name}`);
  const complete = b.rounds.filter((r) => alone.every((a) => r.has(a)));
  const perRound = (
    /** @type {(r: Map<string, number>) => number} */ of,
    /** @type {string} */ id,
  ) => median(complete.filter((r) => r.has(id)).map((r) => (r.get(id) ?? 0) / of(r)));
  const slowest = (/** @type {Map<string, number>} */ r) =>
    Math.max(...alone.map((a) => r.get(a) ?? 0));
  const sum = (/** @type {Map<string, number>} */ r) =>
    alone.reduce((t, a) => t + (r.get(a) ?? 0), 0);
  const oursSlowest = perRound(slowest, 'ours');
  const header = [
    'four servers, ~1 s boot each',
    'warm-up+runs',
    ...FOUR.names.map((name) => `${name} alone ms`),
    'slowest alone ms',
    'sum alone ms',
    'ours (concurrency 4) ms',
    'ours/slowest',
    'ours/sum',
    'sequential (concurrency 1) ms',
    'ours/sequential',
    `default (concurrency ${four.defaultConcurrency}) ms`,
    'default/slowest',
  ];
  const row = [
    `${FOUR.names.length} × slow-boot.mjs --boot-ms ${FOUR.bootMs}`,
    `${b.warmups}+${b.runs}`,
    ...alone.map((a) => ms(medianTime(b, a))),
    ms(median(complete.map(slowest))),
    ms(median(complete.map(sum))),
    ms(medianTime(b, 'ours')),
    ratio(oursSlowest),
    ratio(perRound(sum, 'ours')),
    ms(medianTime(b, 'sequential')),
    ratio(pairedRatio(b.rounds, 'ours', 'sequential')),
    ms(medianTime(b, 'default')),
    ratio(perRound(slowest, 'default')),
  ];
  const notes = [...b.results.values()]
    .filter((r) => r.failed)
    .map((r) => `four servers: ${r.id} failed after ${ms(r.failedMs ?? NaN)} ms, ${r.failed}`);
  return {
    notes,
    targets: [
      [
        'four 1-second servers: ours / the slowest alone',
        `≤ ${LIMITS.fourSlowest}`,
        ratio3(oursSlowest),
        Number.isFinite(oursSlowest) ? verdict(oursSlowest <= LIMITS.fourSlowest) : 'n/a',
      ],
    ],
    text: `${table(header, [row])}
Each candidate is \`check\` on one config file of four servers (\`${relative(ROOT, SLOW_BOOT)}\`, which waits
${FOUR.bootMs} ms before it serves): ours with \`concurrency: 4\` in the file, sequential with
\`--concurrency 1\`, default with no concurrency key (${four.defaultConcurrency} here), and each server
alone (\`--server sN\`). Slowest and sum are taken per round, and the ratios are medians of per-round ratios.
`,
  };
}
