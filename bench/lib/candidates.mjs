// Who audits one server: the floor, ours, the action, the Inspector, and the references that
// take ours − floor apart. Each candidate is a command line and what counts as a completed run.
import { delimiter, join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { BENCH, NODE } from './setup.mjs';

const FLOOR = join(BENCH, 'floor-lister.mjs');
/** How long the floor+burn reference keeps its main thread busy while the server boots. */
export const BURN_MS = 50;

/**
 * @typedef {import('./setup.mjs').Bench} Bench
 * @typedef {import('./targets.mjs').Server} Server
 * @typedef {{ id: string, argv: string[], ok: (code: number | null, stdout: string) => boolean,
 *   count?: (stdout: string) => number | undefined, reference?: boolean,
 *   env?: NodeJS.ProcessEnv, prepare?: () => void }} Candidate
 */

/** The class list `check` compares with, written by `update` first. @param {Bench} b @param {Server} server */
export const classListOf = (b, server) => join(b.runDir, `${server.id}.classes.json`);
/** The same, written by the baseline's own `update`. @param {Bench} b @param {Server} server */
export const baseClassListOf = (b, server) => join(b.runDir, `${server.id}.baseline-classes.json`);

/** 1 is "findings": the audit ran. Only 2 (could not run) is a failure. */
export const audited = (/** @type {number | null} */ code) => code === 0 || code === 1;

/**
 * The runner's environment for one action run on this server: INPUT_* as action.yml declares
 * them (the command as one line), the event, and the summary and output files.
 * @param {Bench} b @param {Server} server @param {{ summary: string, output: string }} files
 * @param {string} classList @returns {NodeJS.ProcessEnv}
 */
function actionEnv(b, server, files, classList) {
  const quote = (/** @type {string} */ word) => `'${word.replace(/'/g, `'"'"'`)}'`;
  return {
    ...b.candidateEnv,
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: 'push',
    GITHUB_EVENT_PATH: b.pushEvent,
    GITHUB_WORKSPACE: b.runDir,
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_OUTPUT: files.output,
    RUNNER_TEMP: b.work,
    INPUT_COMMAND: server.cmd.map(quote).join(' '),
    'INPUT_CLASS-LIST': classList,
    INPUT_CONFIG: '.github/mcp-annotation-auditor.yml',
    INPUT_MODE: 'check',
    INPUT_COMMENT: 'auto',
  };
}

/**
 * The action as GitHub runs it (node <build>/index.js) on this server, as candidate `id`. The
 * runner creates the summary and output files empty before each step, and @actions/core appends
 * to them: each run starts from empty ones, or the summary of earlier runs would fill GitHub's
 * 1 MiB limit and later runs would write less. The step fails (exit 1) on findings; what tells a
 * run that audited from one that could not is the verdict line.
 * @param {Bench} b @param {Server} server @param {string} id @param {string} entry
 * @param {string} classList @returns {Candidate}
 */
function actionCandidate(b, server, id, entry, classList) {
  const files = {
    summary: join(b.work, `${server.id}.${id}.summary.md`),
    output: join(b.work, `${server.id}.${id}.output`),
  };
  return {
    id,
    argv: [NODE, entry],
    env: actionEnv(b, server, files, classList),
    prepare: () => {
      for (const file of Object.values(files)) writeFileSync(file, '');
    },
    ok: (code, stdout) => code === 0 || (code === 1 && /^(PASSED|FAILED): /m.test(stdout)),
    reference: true,
  };
}

/**
 * `check` of one build on this server, against a class list.
 * @param {string} cli @param {string} classList @param {string[]} cmd
 */
export const checkArgv = (cli, classList, cmd) => [
  NODE,
  cli,
  'check',
  '--class-list',
  classList,
  '--',
  ...cmd,
];

/**
 * Every candidate on one server.
 * @param {Bench} b @param {Server} server @param {{ baselineFailed?: boolean }} [state]
 * @returns {Candidate[]}
 */
export function candidatesFor(b, server, { baselineFailed = false } = {}) {
  /** @param {string[]} cmd */
  const floorArgv = (cmd) => [NODE, FLOOR, ...cmd];
  /** @param {string[]} cmd */
  const oursArgv = (cmd) => checkArgv(b.cli, classListOf(b, server), cmd);
  /** @type {Candidate} */
  const floor = {
    id: 'floor',
    argv: floorArgv(server.cmd),
    ok: (code) => code === 0,
    count: (out) => Number(/^(\d+) tools/.exec(out)?.[1]),
  };
  /** @type {Candidate} */
  const ours = { id: 'ours', argv: oursArgv(server.cmd), ok: audited };
  const list = [floor, ours, ...bootReferences(b, server, floor, ours, floorArgv, oursArgv)];
  // For reference: ours as GitHub runs the action (the server given by the command input), on a
  // push event: no token, no base, no comment.
  list.push(actionCandidate(b, server, 'action', b.action, classListOf(b, server)));
  // --baseline: the earlier build's ours and action in the same rounds, each on a class list
  // that build's own update wrote (left out where that update failed: check would then measure
  // a run with no class list).
  if (b.baseline && !baselineFailed)
    list.push(
      {
        ...ours,
        id: 'oursBase',
        argv: checkArgv(join(b.baseline, 'cli.js'), baseClassListOf(b, server), server.cmd),
      },
      actionCandidate(
        b,
        server,
        'actionBase',
        join(b.baseline, 'index.js'),
        baseClassListOf(b, server),
      ),
    );
  const inspector = b.inspector;
  if (!('skipped' in inspector))
    list.push({
      id: 'inspector',
      argv: [inspector.node, inspector.launcher, '--cli', '--method', 'tools/list', ...server.cmd],
      ok: (code) => code === 0,
      count: (out) => {
        try {
          return JSON.parse(out).tools.length;
        } catch {
          return undefined;
        }
      },
    });
  // For reference, not a target: ours on the Inspector's Node (the Action runs on node24).
  if (b.node24)
    list.push({ ...ours, id: 'ours24', argv: [b.node24, ...ours.argv.slice(1)], reference: true });
  return list;
}

/**
 * For reference, on the servers that take time to boot: the floor plus ours's module loading
 * (floorLoad), to tell the cost of loading the SDK while the server boots from the rest of
 * ours − floor; the floor keeping its main thread busy for BURN_MS meanwhile (floorBurn): what
 * that costs the floor, per millisecond of CPU, is what any work on the other core costs the
 * boot; and floor and ours with the server held to CPU 0 and the candidate to CPU 1 (pinned), so
 * that neither can take the other's core.
 * @param {Bench} b @param {Server} server @param {Candidate} floor @param {Candidate} ours
 * @param {(cmd: string[]) => string[]} floorArgv @param {(cmd: string[]) => string[]} oursArgv
 * @returns {Candidate[]}
 */
function bootReferences(b, server, floor, ours, floorArgv, oursArgv) {
  if (!server.boots) return [];
  /** @type {Candidate[]} */
  const list = [
    {
      ...floor,
      id: 'floorLoad',
      env: { ...b.candidateEnv, FLOOR_LOAD: b.loadedByCheck.join(delimiter) },
      reference: true,
    },
    {
      ...floor,
      id: 'floorBurn',
      env: { ...b.candidateEnv, FLOOR_BURN: String(BURN_MS) },
      reference: true,
    },
  ];
  if (b.pinning) {
    const pinned = ['taskset', '-c', '0', ...server.cmd];
    list.push(
      {
        ...floor,
        id: 'floorPinned',
        argv: ['taskset', '-c', '1', ...floorArgv(pinned)],
        reference: true,
      },
      {
        ...ours,
        id: 'oursPinned',
        argv: ['taskset', '-c', '1', ...oursArgv(pinned)],
        reference: true,
      },
    );
  }
  return list;
}
