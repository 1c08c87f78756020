// What `check --base-ref` trusts: the base is read at the base commit (never through a symlink
// the PR planted), symlinks the base commit holds are followed inside the repository only, a
// base commit the clone does not hold is an error that says what to fetch, the base commit's
// config is read whatever the PR did to its own, and a config file without servers takes them
// from .mcp.json. The CLI's engine in this process, servers and the clone in memory
// (test/support/memory-git.ts); test/e2e/base-trust.test.ts runs a planted symlink and a shallow
// clone with the real CLI and git.
import { mkdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { json, notesSpec, SERVERS, tempDir, type Run } from '../support/cli.js';
import { dropIdempotent, putFiles } from '../support/base-fixtures.js';
import { runCliInMemory } from '../support/in-memory.js';
import { MemoryGit, type Files } from '../support/memory-git.js';

const CONFIG = '.github/mcp-annotation-auditor.yml';

/** The server entry that serves `spec.json` of the directory the CLI runs in. */
const served = { command: 'node', args: [join(SERVERS, 'configurable.mjs'), 'spec.json'] };

/** The CLI run in `cwd` (PWD naming it as given), in the clone `git`. */
function cli(git: MemoryGit, cwd: string, ...args: string[]): Promise<Run> {
  return runCliInMemory(args, { cwd, git });
}

async function recorded(git: MemoryGit, cwd: string, ...args: string[]): Promise<void> {
  const update = await cli(git, cwd, 'update', ...args);
  expect(update.code, update.stderr).toBe(0);
}

/** A repository at `dir` whose one commit holds `files`, the spec and the class list update wrote. */
async function baseRepository(dir: string, files: Record<string, unknown>, at = dir) {
  const git = new MemoryGit(dir);
  const spec = await notesSpec();
  await putFiles(dir, files);
  await writeFile(join(at, 'spec.json'), JSON.stringify(spec));
  await recorded(git, at);
  const sha = await git.commitWorkingTree();
  return { git, spec, sha };
}

function findingIds(run: Run): string[] {
  return json(run).findings.map((f) => `${f.rule}:${f.tool ?? ''}`);
}

const listConfig = {
  policies: ['claude'],
  classList: 'mcp/classes.json',
  servers: { notes: served },
};

describe('check --base-ref reads the base at the base commit', () => {
  it('run from a folder the PR makes a symlink to another, the base is read at the folder as named', async () => {
    const dir = await tempDir();
    const server = join(dir, 'server');
    await mkdir(server);
    const config = { policies: ['claude'], servers: { notes: served } };
    const { git, spec } = await baseRepository(dir, { [`server/${CONFIG}`]: config }, server);
    await rename(server, join(dir, 'server-v2'));
    await symlink('server-v2', server);
    await writeFile(join(server, 'spec.json'), JSON.stringify(dropIdempotent(spec)));
    await recorded(git, server);
    const run = await cli(git, server, 'check', '--format', 'json', '--base-ref', 'HEAD');
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(findingIds(run)).toContain('hint-dropped:delete_note');
  });

  it('a class list the PR replaces by a symlink to a weaker copy is still compared with the base', async () => {
    const dir = await tempDir();
    const { git, spec } = await baseRepository(dir, { [CONFIG]: listConfig });
    // The PR records the dropped hint in a copy and links the list to it: the base is the blob.
    await mkdir(join(dir, 'copy'));
    await rename(join(dir, 'mcp/classes.json'), join(dir, 'copy/classes.json'));
    await symlink('../copy/classes.json', join(dir, 'mcp/classes.json'));
    await writeFile(join(dir, 'spec.json'), JSON.stringify(dropIdempotent(spec)));
    await recorded(git, dir);
    const run = await cli(git, dir, 'check', '--format', 'json', '--base-ref', 'HEAD');
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(findingIds(run)).toContain('hint-dropped:delete_note');
  });
});

describe('check --base-ref follows symlinks as the base commit stored them', () => {
  it('a class list folder that is a symlink in the base commit is read through it', async () => {
    const dir = await tempDir();
    await mkdir(join(dir, 'lists'));
    await symlink('lists', join(dir, 'mcp'));
    const { git, spec } = await baseRepository(dir, { [CONFIG]: listConfig });
    await writeFile(join(dir, 'spec.json'), JSON.stringify(dropIdempotent(spec)));
    await recorded(git, dir);
    const run = await cli(git, dir, 'check', '--format', 'json', '--base-ref', 'HEAD');
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(findingIds(run)).toContain('hint-dropped:delete_note');
  });

  it('a symlink in the base commit that leaves the repository is refused, exit 2', async () => {
    const dir = await tempDir();
    const repo = join(dir, 'repo');
    await mkdir(repo);
    const git = new MemoryGit(repo);
    // update writes only inside the repository: the list is recorded there, then moved out and
    // linked back before the base commit is made.
    await putFiles(repo, { [CONFIG]: listConfig });
    await writeFile(join(repo, 'spec.json'), JSON.stringify(await notesSpec()));
    await recorded(git, repo);
    await rename(join(repo, 'mcp'), join(dir, 'outside'));
    await symlink('../outside', join(repo, 'mcp'));
    await git.commitWorkingTree();
    const run = await cli(git, repo, 'check', '--base-ref', 'HEAD');
    expect(run.code, run.stdout + run.stderr).toBe(2);
    expect(run.stderr).toContain('mcp/classes.json at HEAD leaves the repository');
  });

  it('an absolute symlink, a loop, a submodule and a folder at the path are refused, exit 2', async () => {
    const dir = await tempDir();
    const git = new MemoryGit(dir);
    await putFiles(dir, { [CONFIG]: listConfig, 'spec.json': await notesSpec() });
    await recorded(git, dir);
    const base = await git.workingTree();
    const cases: [Files, string][] = [
      [{ mcp: { symlink: '/etc' } }, 'goes through the symlink mcp, which points outside it'],
      [{ mcp: { symlink: 'mcp' } }, 'passes more than 40 symlinks'],
      [{ mcp: { submodule: 'mcp' } }, 'goes through mcp, a submodule'],
      [{ 'mcp/classes.json/inner': '{}' }, 'is a folder'],
    ];
    for (const [files, why] of cases) {
      const held = Object.fromEntries(Object.entries(base).filter(([p]) => !p.startsWith('mcp/')));
      git.commitFiles({ ...held, ...files });
      const run = await cli(git, dir, 'check', '--base-ref', 'HEAD');
      expect(run.code, run.stdout + run.stderr).toBe(2);
      expect(run.stderr).toContain(`mcp/classes.json at HEAD ${why}`);
    }
  });

  it('a blob the base commit names but the clone lacks is an error, never "no class list"', async () => {
    const dir = await tempDir();
    const { git } = await baseRepository(dir, { [CONFIG]: listConfig });
    git.commitFiles({ ...(await git.workingTree()), 'mcp/classes.json': { missing: 'list' } });
    const run = await cli(git, dir, 'check', '--format', 'json', '--base-ref', 'HEAD');
    expect(run.code, run.stdout + run.stderr).toBe(2);
    expect(run.stderr).toContain('Not a valid object name');
  });
});

describe('check --base-ref with a base commit the clone does not hold', () => {
  it('outside any repository, --base-ref is exit 2 saying so', async () => {
    const dir = await tempDir();
    await putFiles(dir, {
      [CONFIG]: { servers: { notes: served } },
      'spec.json': await notesSpec(),
    });
    const run = await runCliInMemory(['check', '--base-ref', 'HEAD'], { cwd: dir });
    expect(run.code, run.stdout + run.stderr).toBe(2);
    expect(run.stderr).toContain('is not in a git repository');
  });
});

describe('check --base-ref and the config file', () => {
  it('reads the base commit config when the PR deletes its config and old class list', async () => {
    const dir = await tempDir();
    const project = { mcpServers: { notes: served } };
    const { git, spec } = await baseRepository(dir, {
      [CONFIG]: listConfig,
      '.mcp.json': project,
      'mcp/.keep': '',
    });
    await rm(join(dir, CONFIG));
    await rm(join(dir, 'mcp'), { recursive: true });
    await writeFile(join(dir, 'spec.json'), JSON.stringify(dropIdempotent(spec)));
    await recorded(git, dir);
    const run = await cli(
      git,
      dir,
      'check',
      '--format',
      'json',
      '--policy',
      'claude',
      '--base-ref',
      'HEAD',
    );
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(findingIds(run)).toContain('hint-dropped:delete_note');
    expect(findingIds(run)).toContain('class-list-moved:');
  });

  it('a config file with no servers (only a waiver) takes the servers from .mcp.json', async () => {
    const dir = await tempDir();
    const git = new MemoryGit(dir);
    await putFiles(dir, {
      'spec.json': await notesSpec(),
      '.mcp.json': { mcpServers: { notes: served } },
      [CONFIG]: {
        waivers: [
          { rule: 'tool-added', tool: 'add_note', reason: 'reviewed', expires: '2099-01-01' },
        ],
      },
    });
    await recorded(git, dir);
    const run = await cli(git, dir, 'check', '--format', 'json');
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(json(run).tools.map((t) => t.name)).toContain('delete_note');
    expect(run.stderr).toContain(`servers from .mcp.json (${CONFIG} lists none)`);
  });
});
