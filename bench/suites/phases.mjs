// --profile: where `check` spends its CPU, per phase, at 100 and 10,000 tools. Each sample of a
// `node --cpu-prof` run of the readable build (names kept, source maps) goes to the phase of the
// innermost frame whose source file names one (PHASES): zod called from src/core/tools.ts is
// validation, zod called while the SDK builds its wire schemas is the SDK client's set-up. Any
// frame of Node's module loader makes the sample module loading, since a module's top-level code
// runs inside it.
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { classListOf } from '../lib/candidates.mjs';
import { median } from '../lib/stats.mjs';
import { cpuProfile, readableBuild } from './profile.mjs';

/** How many profiles of each size: the table gives medians. */
const PROFILES = 3;

/**
 * The phases, as patterns over a frame's source (a path from the repository for our code and the
 * dependencies, node:… for Node's own), in the order the table lists them.
 * @type {[string, RegExp][]}
 */
export const PHASES = [
  [
    'module loading (resolve, read, compile, top-level code)',
    /^node:internal\/(modules|bootstrap\/realm)/,
  ],
  [
    'argv and config (src/cli, src/config, prestart)',
    /^src\/(cli|cli\/.*|prestart|config\/.*)\.ts$/,
  ],
  [
    'SDK client set-up (its wire schemas)',
    /^node_modules\/@modelcontextprotocol\/.*\/(buildSchemas|registry)\.ts$/,
  ],
  [
    'handshake and listing (SDK protocol, transport, pages)',
    /^(node_modules\/@modelcontextprotocol\/|src\/server\/(stdio|paginate|connection|listing|process|sdk|http)\.ts$)/,
  ],
  ['secrets redaction (src/redact, server/secrets)', /^src\/(redact|server\/secrets)\.ts$/],
  ['validation (core/tools fast path and zod, core/schemas)', /^src\/core\/(tools|schemas)\.ts$/],
  ['classification (core/classify, listings, eras)', /^src\/core\/(classify|listings|eras)\.ts$/],
  [
    'rules and policies (core/rules, policies, findings, waivers)',
    /^src\/core\/(rules|rules\/.*|policies|findings|waivers|moves|renames)\.ts$/,
  ],
  [
    'class list: read, parse, compare (core/classlist, jsontext, diff)',
    /^src\/(files|core\/(classlist|jsontext|diff|update))\.ts$/,
  ],
  ['escaping (src/escape)', /^src\/escape\.ts$/],
  ['report (src/report, core/advice, core/text)', /^src\/(report\/.*|core\/(advice|text))\.ts$/],
  [
    'output (writing stdout)',
    /^node:(internal\/stream_base_commons|net|internal\/streams\/writable)$/,
  ],
  ['stopping the server (server/tree)', /^src\/server\/tree\.ts$/],
  ['orchestration (src/audit, pool, lazy)', /^src\/(audit|pool|lazy|zod)\.ts$/],
];
const LOADING = PHASES[0]?.[0] ?? '';
/** V8's own entries: not frames of any source. */
const SPECIAL = {
  '(idle)': 'idle (waiting for the server)',
  '(garbage collector)': 'garbage collection',
  '(program)': 'V8 and Node, unattributed',
};
export const OTHER = 'other (Node, dependencies)';

/**
 * A frame's source: the source map's original for the build's files, Node's URL for its own.
 * @param {Map<string, SourceMap | null>} maps
 * @param {{ url: string, lineNumber: number, columnNumber: number }} frame
 */
function sourceOf(maps, frame) {
  if (!frame.url.startsWith('file:')) return frame.url;
  const file = fileURLToPath(frame.url);
  if (!maps.has(file)) {
    const map = `${file}.map`;
    maps.set(file, existsSync(map) ? new SourceMap(JSON.parse(readFileSync(map, 'utf8'))) : null);
  }
  const entry = /** @type {{ originalSource?: string }} */ (
    maps.get(file)?.findEntry(frame.lineNumber, frame.columnNumber) ?? {}
  );
  // The repository's part of the path: src/… or node_modules/….
  return (entry.originalSource ?? file).replace(/^.*?\/(?=(src|node_modules)\/)/, '');
}

/**
 * CPU ms per phase of one .cpuprofile.
 * @param {string} file @returns {Map<string, number>}
 */
export function phasesOf(file) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  /** @type {Map<number, any>} */
  const nodes = new Map(profile.nodes.map((/** @type {any} */ n) => [n.id, n]));
  /** @type {Map<number, number>} */
  const parent = new Map();
  for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
  /** @type {Map<string, SourceMap | null>} */
  const maps = new Map();
  /** @type {Map<number, string>} each profile node's phase, found once */
  const phaseOfNode = new Map();
  const phaseOf = (/** @type {number} */ id) => {
    const known = phaseOfNode.get(id);
    if (known) return known;
    const leaf = nodes.get(id).callFrame.functionName;
    /** @type {string | undefined} */
    let phase = SPECIAL[/** @type {keyof typeof SPECIAL} */ (leaf)];
    for (
      let n = /** @type {number | undefined} */ (id);
      n !== undefined && phase !== LOADING;
      n = parent.get(n)
    ) {
      const source = sourceOf(maps, nodes.get(n).callFrame);
      const match = PHASES.find(([, pattern]) => pattern.test(source))?.[0];
      if (match === LOADING || (match && !phase)) phase = match;
    }
    phaseOfNode.set(id, phase ?? OTHER);
    return phase ?? OTHER;
  };
  /** @type {Map<string, number>} */
  const ms = new Map();
  profile.samples.forEach((/** @type {number} */ id, /** @type {number} */ i) => {
    const phase = phaseOf(id);
    ms.set(phase, (ms.get(phase) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return ms;
}

/**
 * @typedef {{ label: string, tools: number | undefined, wallMs: number, phases: Map<string, number> }} PhaseRow
 */

/**
 * The per-phase CPU of `check` at 100 and 10,000 tools (those of the servers this run measured),
 * medians of PROFILES profiles each.
 * @param {import('../lib/setup.mjs').Bench} b @param {import('../lib/rounds.mjs').Pace} pace
 * @param {import('../lib/targets.mjs').Server[]} servers @returns {Promise<PhaseRow[]>}
 */
export async function phaseSuite(b, pace, servers) {
  const readable = readableBuild(b);
  const rows = [];
  for (const server of servers) {
    if (!['many-100', 'many-10000'].includes(server.id) || !existsSync(classListOf(b, server)))
      continue;
    /** @type {Map<string, number>[]} */
    const runs = [];
    const walls = [];
    for (let i = 0; i < PROFILES; i += 1) {
      const run = await cpuProfile(
        b,
        pace,
        readable,
        server,
        join(b.work, 'phases', `${server.id}-${i}`),
      );
      if (!run) continue;
      runs.push(phasesOf(run.file));
      walls.push(run.wallMs);
    }
    const names = [...PHASES_IN_ORDER(), ...new Set(runs.flatMap((r) => [...r.keys()]))];
    const phases = new Map(
      [...new Set(names)].map((name) => [name, median(runs.map((r) => r.get(name) ?? 0))]),
    );
    rows.push({ label: server.label, tools: server.tools, wallMs: median(walls), phases });
  }
  return rows;
}

/** Every phase name in the table's order. */
export const PHASES_IN_ORDER = () => [
  ...PHASES.map(([name]) => name),
  OTHER,
  ...Object.values(SPECIAL),
];
