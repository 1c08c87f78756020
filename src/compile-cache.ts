import { mkdirSync, statSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The part of node:module used here; the types of Node 20 do not have it yet. */
interface CompileCacheApi {
  enableCompileCache?: (dir: string) => unknown;
}

/**
 * Node's module compile cache (Node 22.1 and later, which the action's node24 is): the code V8
 * compiled for the bundle's chunks is kept on disk, so the next run reads it instead of
 * compiling them again (loading the modules was half of `check` at 100 tools). It lives in the
 * runner's temporary folder (RUNNER_TEMP) or the OS's, never in the repository, in a folder of
 * this user's own: a folder someone else made or may write to is not used, since code read
 * from it would run as ours. Where the API is absent (Node 20), or anything fails, the run
 * simply compiles as before: nothing is printed, nothing else changes. `api` is node:module
 * (a test gives its own).
 */
export function enableCompileCache(
  env: NodeJS.ProcessEnv = process.env,
  api: CompileCacheApi = nodeModule as CompileCacheApi,
): void {
  const enable = api.enableCompileCache;
  if (typeof enable !== 'function') return;
  try {
    const uid = process.getuid?.();
    const dir = join(
      env.RUNNER_TEMP || tmpdir(),
      `mcp-annotation-auditor-compile-cache${uid === undefined ? '' : `-${uid}`}`,
    );
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = statSync(dir);
    // Owned by us, and no one else may write to it (mode & 0o022: group or others).
    if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid) || stat.mode & 0o022) return;
    enable(dir);
  } catch {
    // A cache is an optimisation: without one the run is the same, only slower to start.
  }
}
