// What `check --base-ref` trusts, through the CLI, real server processes and real git
// repositories: the base is read at the base commit (never through a symlink the PR planted), and
// a base commit a shallow clone does not hold is an error that says what to fetch. The variants
// (symlinks the base commit holds, the PR deleting its config, a submodule, a missing object)
// run in memory in test/unit/base-trust.test.ts, over the same base reader.
import { execFile } from 'node:child_process';
import { rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { json, notesSpec, runCli, SERVERS, tempDir } from '../support/cli.js';
import { dropIdempotent, putFiles } from '../support/base-fixtures.js';
import { git } from '../support/git.js';

const exec = promisify(execFile);
const CONFIG = '.github/mcp-annotation-auditor.yml';

async function commitAll(dir: string, message: string): Promise<string> {
  await git(dir, 'add', '-A');
  await git(dir, 'commit', '-q', '-m', message);
  return git(dir, 'rev-parse', 'HEAD');
}

/** The server entry that serves `spec.json` of the directory the CLI runs in. */
const served = { command: 'node', args: [join(SERVERS, 'configurable.mjs'), 'spec.json'] };

/** Runs the CLI in `cwd` as a shell would after `cd`: PWD names the folder as the user did. */
function cli(cwd: string, ...args: string[]) {
  return runCli(args, { cwd, env: { ...process.env, PWD: cwd } });
}

async function recorded(cwd: string, ...args: string[]): Promise<void> {
  const update = await cli(cwd, 'update', ...args);
  expect(update.code, update.stderr).toBe(0);
}

/** A repository whose one commit holds `files`, the spec and the class list update wrote. */
async function baseRepository(dir: string, files: Record<string, unknown>, at = dir) {
  const spec = await notesSpec();
  await git(dir, 'init', '-q');
  await putFiles(dir, files);
  await writeFile(join(at, 'spec.json'), JSON.stringify(spec));
  await recorded(at);
  const sha = await commitAll(dir, 'base');
  return { spec, sha };
}

function findingIds(run: Awaited<ReturnType<typeof cli>>): string[] {
  return json(run).findings.map((f) => `${f.rule}:${f.tool ?? ''}`);
}

describe('check --base-ref reads the base at the base commit', () => {
  it('a class list folder the PR turns into a symlink to a new folder is still compared at the base', async () => {
    const dir = await tempDir();
    const config = {
      policies: ['claude'],
      classList: 'mcp/classes.json',
      servers: { notes: served },
    };
    const { spec } = await baseRepository(dir, { [CONFIG]: config, 'mcp/.keep': '' });
    // The PR: the list moves to mcp2/, mcp becomes a link to it, and the dropped hint is recorded.
    await rename(join(dir, 'mcp'), join(dir, 'mcp2'));
    await symlink('mcp2', join(dir, 'mcp'));
    await writeFile(join(dir, 'spec.json'), JSON.stringify(dropIdempotent(spec)));
    await recorded(dir);
    const run = await cli(dir, 'check', '--format', 'json', '--base-ref', 'HEAD');
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(findingIds(run)).toContain('hint-dropped:delete_note');
    expect(findingIds(run)).not.toContain('tool-added:delete_note');
  });
});

describe('check --base-ref with a base commit the clone does not hold', () => {
  async function shallowClone() {
    const origin = await tempDir();
    const config = { policies: ['claude'], servers: { notes: served } };
    const { spec, sha: base } = await baseRepository(origin, { [CONFIG]: config });
    await writeFile(join(origin, 'spec.json'), JSON.stringify(dropIdempotent(spec)));
    await recorded(origin);
    await commitAll(origin, 'the PR');
    const clone = join(await tempDir(), 'clone');
    await exec('git', ['clone', '-q', '--depth', '1', `file://${origin}`, clone]);
    return { clone, base };
  }

  it('is exit 2, saying which commit to fetch, for a full commit id and for the all-zero id', async () => {
    const { clone, base } = await shallowClone();
    const missing = await cli(clone, 'check', '--base-ref', base);
    expect(missing.code, missing.stdout + missing.stderr).toBe(2);
    expect(missing.stderr).toContain(`${base} is not in this clone`);
    expect(missing.stderr).toContain(`git fetch --depth=1 origin ${base}`);
    const zero = await cli(clone, 'check', '--base-ref', '0'.repeat(40));
    expect(zero.code, zero.stdout + zero.stderr).toBe(2);
    expect(zero.stderr).toContain('is the all-zero commit id, which names no commit');
    // Once fetched, the same command compares, and finds the dropped hint.
    await git(clone, 'fetch', '-q', '--depth=1', 'origin', base);
    const fetched = await cli(clone, 'check', '--format', 'json', '--base-ref', base);
    expect(fetched.code, fetched.stdout + fetched.stderr).toBe(1);
    expect(findingIds(fetched)).toContain('hint-dropped:delete_note');
  });
});
