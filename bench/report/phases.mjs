// --profile: the per-phase table of where `check` spends its CPU, at 100 and 10,000 tools.
import { int, ms, table } from '../lib/stats.mjs';
import { PHASES_IN_ORDER } from '../suites/phases.mjs';

/** @param {import('../suites/phases.mjs').PhaseRow[]} rows @returns {string} */
export function phaseSection(rows) {
  if (!rows.length) return '';
  const names = PHASES_IN_ORDER().filter((name) =>
    rows.some((r) => (r.phases.get(name) ?? 0) >= 0.5),
  );
  const total = (/** @type {import('../suites/phases.mjs').PhaseRow} */ r) =>
    [...r.phases.values()].reduce((sum, t) => sum + t, 0);
  const header = [
    'phase',
    ...rows.flatMap((r) => [`${r.tools === undefined ? r.label : int(r.tools)} tools ms`, 'share']),
  ];
  const body = [
    ...names.map((name) => [
      name,
      ...rows.flatMap((r) => {
        const t = r.phases.get(name) ?? 0;
        return [t.toFixed(1), `${((100 * t) / total(r)).toFixed(1)} %`];
      }),
    ]),
    ['sampled in all', ...rows.flatMap((r) => [ms(total(r)), ''])],
    ['wall time of the profiled run', ...rows.flatMap((r) => [ms(r.wallMs), ''])],
  ];
  return `## Where \`check\` spends its time, per phase (--profile)

${table(header, body)}
Medians over three \`node --cpu-prof\` runs of \`check\` each, from the readable build with source
maps (\`node scripts/build.mjs --readable <dir>\`): a sample goes to the phase of the innermost
frame whose source file names one (zod under \`src/core/tools.ts\` is validation, under the SDK's
\`buildSchemas\` the SDK client's set-up), and to module loading whenever Node's module loader is
on the stack (a module's top-level code runs inside it). "idle" is the process waiting, mostly for
the server. The patterns are \`PHASES\` in \`bench/suites/phases.mjs\`. Commands:

\`\`\`
node scripts/build.mjs --readable <dir>
node <dir>/cli.js update --class-list <tmp>/many-N.classes.json -- node test/fixtures/servers/many-tools.mjs N 100
node --cpu-prof --cpu-prof-dir=<tmp> <dir>/cli.js check --class-list <tmp>/many-N.classes.json -- node test/fixtures/servers/many-tools.mjs N 100
npm run bench -- --only many-100,many-10000 --profile   (all of it, with this table)
\`\`\`
`;
}
