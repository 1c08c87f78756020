import { resolve } from 'node:path';
import { ServerProcess, stopAll, type SpawnSpec } from './process.js';

/*
 * The servers started early: when argv (the CLI) or the inputs (the action) name a stdio server,
 * the entry starts it before the rest of the auditor (zod, yaml, the MCP SDK) loads, so that the
 * server boots while we do (cli/early.ts, action/early.ts). The listing claims it (serverFor)
 * only when its own settings yield the very same spec; otherwise it is stopped unused, with every
 * other server, when the entry ends (stopEveryServer).
 */

const started: ServerProcess[] = [];

/** Same command, arguments, environment and directory (a relative or absent cwd is resolved now). */
function sameSpec(a: SpawnSpec, b: SpawnSpec): boolean {
  const keys = (env: Record<string, string>) => Object.keys(env).sort().join('\0');
  return (
    a.command === b.command &&
    resolve(a.cwd ?? '.') === resolve(b.cwd ?? '.') &&
    a.args.length === b.args.length &&
    a.args.every((arg, i) => arg === b.args[i]) &&
    keys(a.env) === keys(b.env) &&
    Object.entries(a.env).every(([k, v]) => b.env[k] === v)
  );
}

/**
 * Starts the server now, and the MCP SDK (and zod) loading meanwhile: the listing imports it
 * again and gets the same module, but by then it is read and compiled, in the gaps while the
 * entry loads the rest of the auditor and reads its files. A failure is the listing's to report.
 */
export function startEarly(spec: SpawnSpec): void {
  started.push(new ServerProcess(spec));
  import('./sdk.js').catch(() => undefined);
}

/** The server for this spec: the one started early if its spec is the same and unclaimed, else a new one. */
export function serverFor(spec: SpawnSpec): ServerProcess {
  const index = started.findIndex((server) => sameSpec(server.spec, spec));
  return (index < 0 ? undefined : started.splice(index, 1)[0]) ?? new ServerProcess(spec);
}

/**
 * What every entry does before it ends, whatever happened: every server we started is stopped,
 * the early ones no audit took and any a listing still holds (an error in the middle of one), and
 * every stop has settled. No server outlives the process.
 */
export async function stopEveryServer(): Promise<void> {
  started.length = 0;
  await stopAll();
}
