// Growth with the number of tools: the time one more tool adds from 100 to 1,000 tools and from
// 1,000 to 10,000, on the synthetic server. Flat means linear.
import { int, ms, table, verdict } from '../lib/stats.mjs';
import { LIMITS } from '../lib/targets.mjs';
import { summarize } from './servers.mjs';

/** @param {import('../suites/servers.mjs').ServerRun[]} runs @returns {import('./servers.mjs').Section} */
export function growth(runs) {
  const points = [100, 1_000, 10_000].map((n) => {
    const run = runs.find((r) => r.server.id === `many-${n}`);
    return { n, s: run ? summarize(run.bench) : undefined };
  });
  if (!points.every((p) => p.s)) return { text: '' };
  const g = /** @type {{ n: number, s: import('./servers.mjs').Summary }[]} */ (points);
  const [a, b, c] = /** @type {[typeof g[0], typeof g[0], typeof g[0]]} */ (g);
  const slope = (
    /** @type {'ours' | 'excess' | 'floor'} */ key,
    /** @type {typeof a} */ lo,
    /** @type {typeof a} */ hi,
  ) => (hi.s[key] - lo.s[key]) / (hi.n - lo.n);
  const us = (/** @type {number} */ perMs) => `${(perMs * 1000).toFixed(1)} µs`;
  const [s1, s2] = [slope('ours', a, b), slope('ours', b, c)];
  const [e1, e2] = [slope('excess', a, b), slope('excess', b, c)];
  // Linear growth keeps the per-tool cost flat from one decade to the next; allow 50 % plus
  // 0.02 ms per tool (18 ms over 900 tools) for noise.
  const { factor, slackMs } = LIMITS.growth;
  const linear = s2 <= factor * s1 + slackMs;
  const lines = [
    table(
      ['tools', 'floor ms', 'ours ms', 'ours−floor ms', 'ours−floor per tool'],
      g.map((x) => [
        int(x.n),
        ms(x.s.floor),
        ms(x.s.ours),
        ms(x.s.excess),
        `${((x.s.excess / x.n) * 1000).toFixed(1)} µs`,
      ]),
    ),
    table(
      ['per added tool', '100 → 1,000', '1,000 → 10,000', 'growth'],
      [
        ['floor', us(slope('floor', a, b)), us(slope('floor', b, c)), ''],
        ['ours', us(s1), us(s2), `× ${(s2 / s1).toFixed(1)}`],
        ['ours − floor', us(e1), us(e2), `× ${(e2 / e1).toFixed(1)}`],
      ],
    ),
  ];
  if (!linear)
    lines.push(
      `The cost of one more tool grows ${(s2 / s1).toFixed(1)}× from the 100→1,000 decade to the ` +
        `1,000→10,000 one: worse than linear (a quadratic step somewhere in check).\n`,
    );
  return {
    text: lines.join('\n'),
    targets: [
      [
        'growth 100 → 10,000 tools no worse than linear',
        `ours per added tool, 1k→10k ≤ ${factor} × (100→1k) + ${slackMs * 1000} µs`,
        `${(s2 * 1000).toFixed(1)} vs ${(s1 * 1000).toFixed(1)} µs`,
        verdict(linear),
      ],
    ],
  };
}
