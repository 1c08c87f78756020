// What the benchmark measures, as data: the servers one audit runs against, the config files of
// several servers, and the limits the Targets table judges. A server or a limit added is a row
// added here; the suites and the report read these lists.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { NODE, ROOT } from './setup.mjs';
import { int } from './stats.mjs';

const MANY = join(ROOT, 'test/fixtures/servers/many-tools.mjs');
const RAW_NOTES = join(ROOT, 'test/fixtures/servers/raw-notes.mjs');
const FS_PACKAGE = join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem');
export const SLOW_BOOT = join(ROOT, 'test/fixtures/servers/slow-boot.mjs');
export const MANY_TOOLS = MANY;

/**
 * @typedef {{ id: string, label: string, tools?: number, cmd: string[], boots?: boolean }} Server
 * @typedef {{ id: string, boots?: boolean, tools?: number,
 *   make: (work: string) => { label: string, cmd: string[] } }} ServerRow
 */

/**
 * The servers audited one at a time. `boots`: it takes time to start (a real server), so the
 * references that measure what ours costs the boot (floorLoad, floorBurn, pinned) run on it.
 * @type {ServerRow[]}
 */
export const SERVER_ROWS = [
  {
    id: 'example',
    boots: true,
    make: () => ({
      label: 'example notes server',
      cmd: [NODE, join(ROOT, 'examples/notes/server.mjs')],
    }),
  },
  {
    id: 'filesystem',
    boots: true,
    make: (work) => {
      // A small folder for it to serve: twenty notes.
      const root = join(work, 'fs-root');
      mkdirSync(join(root, 'notes'), { recursive: true });
      for (let i = 0; i < 20; i += 1)
        writeFileSync(join(root, 'notes', `note-${i}.txt`), `note ${i}\n`);
      const { version } = JSON.parse(readFileSync(join(FS_PACKAGE, 'package.json'), 'utf8'));
      return {
        label: `server-filesystem ${version}`,
        cmd: [NODE, join(FS_PACKAGE, 'dist/index.js'), root],
      };
    },
  },
  {
    id: 'raw-notes',
    tools: 3,
    make: () => ({ label: 'raw notes server (no SDK)', cmd: [NODE, RAW_NOTES] }),
  },
  ...[100, 1_000, 10_000].map((n) => ({
    id: `many-${n}`,
    tools: n,
    make: () => ({ label: `synthetic, ${int(n)} tools`, cmd: [NODE, MANY, String(n), '100'] }),
  })),
];

/**
 * The servers this run audits (--only), made ready.
 * @param {string} work @param {(id: string) => boolean} wanted @returns {Server[]}
 */
export const serversOf = (work, wanted) =>
  SERVER_ROWS.filter((row) => wanted(row.id)).map(({ id, boots, tools, make }) => ({
    id,
    ...(boots ? { boots } : {}),
    ...(tools ? { tools } : {}),
    ...make(work),
  }));

/**
 * The auditor's default concurrency, as src/config/settings.ts sets it (two per core, at least
 * four): the label of the columns that measure the build's default.
 */
export const DEFAULT_CONCURRENCY = () => Math.max(4, 2 * availableParallelism());

/** Four servers in one config file, each about a second to boot (mostly waiting). */
export const FOUR = { names: ['s1', 's2', 's3', 's4'], bootMs: 1000 };

/**
 * The default concurrency candidates (concurrency suite): four servers whose boot waits, and four
 * whose boot keeps a core busy, each audited at these concurrencies: one at a time, the former
 * default (the cores, at least 2), four, and the default.
 */
export const CONCURRENCY = () => ({
  servers: 4,
  waitMs: 1000,
  burnMs: 500,
  byDefault: DEFAULT_CONCURRENCY(),
  levels: [...new Set([1, Math.max(2, availableParallelism()), 4, DEFAULT_CONCURRENCY()])].sort(
    (a, b) => a - b,
  ),
});

/** The limits the Targets table judges. */
export const LIMITS = {
  /** ours/floor wall time on these servers. */
  oursFloor: { servers: ['filesystem', 'example'], max: 1.15 },
  /** ours − floor at 10,000 tools, ms. */
  excess10k: 2000,
  /** Four 1-second servers: ours / the slowest alone. */
  fourSlowest: 1.4,
  /** Growth: ours per added tool 1k→10k ≤ factor × (100→1k) + slack ms per tool. */
  growth: { factor: 1.5, slackMs: 0.02 },
  /** The most ours/baseline ours (and action/baseline action) may grow. */
  baselineSlack: 1.03,
  /** ours/floor where the server answers at once, by server: nothing of a boot hides our cost. */
  fastFloor: { 'raw-notes': 1.1, 'many-100': 1.3, 'many-1000': 1.5, 'many-10000': 2.0 },
  /** action/ours on every server audited alone. */
  actionOurs: 1.1,
  /** Peak RSS at 10,000 tools: ours no more than the floor's + this, MiB. */
  memory10k: 60,
};
