// Cold start: the CLI's --help and the action's entry with no inputs, next to `node -e 0`.
import { runRounds } from '../lib/rounds.mjs';
import { NODE } from '../lib/setup.mjs';

/**
 * @param {import('../lib/setup.mjs').Bench} b @param {import('../lib/rounds.mjs').Pace} pace
 * @returns {Promise<import('../lib/rounds.mjs').Rounds>}
 */
export function coldStart(b, pace) {
  const any = () => true;
  /** @type {import('../lib/candidates.mjs').Candidate[]} */
  const candidates = [
    { id: 'node', argv: [NODE, '-e', '0'], ok: any },
    // As this machine starts every Node: with NODE_EXTRA_CA_CERTS, which no measured run gets.
    ...(b.extraCa ? [{ id: 'nodeCa', argv: [NODE, '-e', '0'], ok: any, env: process.env }] : []),
    ...(b.node24 ? [{ id: 'node24', argv: [b.node24, '-e', '0'], ok: any }] : []),
    { id: 'help', argv: [NODE, b.cli, '--help'], ok: (code) => code === 0 },
    // The action's entry run with no inputs: it may fail; the time still counts.
    { id: 'action', argv: [NODE, b.action], ok: any },
  ];
  return runRounds(pace, 'cold start', candidates);
}
