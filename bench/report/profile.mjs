// --profile: the functions with the most self time in each CPU profile, and when each candidate
// starts the server.
import { ms, table } from '../lib/stats.mjs';

/** @param {import('../suites/profile.mjs').ProfileRun} run @returns {string} */
export function profileSections(run) {
  const sections = ['## Profile of `check` (--profile)', ''];
  for (const p of run.profiles)
    sections.push(
      `### ${p.label}: ${Math.round(p.wallMs)} ms wall (profiled), ${Math.round(p.sampledMs)} ms sampled`,
      '',
      table(
        ['function (file:line)', 'self ms', 'share'],
        p.self
          .slice(0, 12)
          .map(([k, t]) => [k, t.toFixed(1), `${((100 * t) / p.sampledMs).toFixed(1)} %`]),
      ),
    );
  sections.push(
    '### When each candidate starts the server (medians of 4 runs)',
    '',
    'Lead: from spawning the candidate to the server process starting. The rest is the',
    "handshake, the listing, the candidate's own work and both exits.",
    '',
    table(
      ['server', 'candidate', 'lead ms', 'total ms', 'after server start ms'],
      run.leads.map((l) => [
        l.server,
        l.candidate,
        ms(l.leadMs),
        ms(l.totalMs),
        ms(l.totalMs - l.leadMs),
      ]),
    ),
  );
  return sections.join('\n');
}
