// Every file the tool writes stays in the repository: a symlink or `..` a PR planted in it cannot
// carry a write to the user's home (the CLI) or the runner's own files (the action).
import { execFile } from 'node:child_process';
import { copyFile, mkdir, readdir, readFile, realpath, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeConfined, type WriteRoot } from '../../src/confined.js';
import { describeError } from '../../src/errors.js';
import { TOKEN } from '../support/action.js';
import { prWorkspace, quote, runIn } from '../support/action-workspace.js';
import { EXAMPLE, notesSpec, removeTempDirs, ROOT, runCli, tempDir } from '../support/cli.js';
import { startGitHubApi, type FakeGitHub } from '../support/github-api.js';

afterAll(removeTempDirs);

const exec = promisify(execFile);
const USER_SETTINGS = '{\n  "permissions": {\n    "allow": ["Bash(ls)"]\n  }\n}\n';
const NOTES = ['--server-name', 'notes', '--', process.execPath, EXAMPLE];

/** A repository with the reviewed class list, and a home folder with the user's own settings. */
async function repoAndHome(): Promise<{ dir: string; home: string; env: NodeJS.ProcessEnv }> {
  // A folder of its own above the repository, so that a write that climbs out lands where
  // only this test looks.
  const dir = join(await realpath(await tempDir()), 'repo');
  const home = await realpath(await tempDir());
  await mkdir(dir);
  await copyFile(join(ROOT, 'mcp-tool-classes.json'), join(dir, 'mcp-tool-classes.json'));
  await mkdir(join(home, '.claude'));
  await writeFile(join(home, '.claude', 'settings.json'), USER_SETTINGS);
  return { dir, home, env: { ...process.env, HOME: home } };
}

describe('rules --write stays in the repository', () => {
  it('refuses a settings file the PR made a symlink to ~/.claude/settings.json, and leaves that file alone', async () => {
    const { dir, home, env } = await repoAndHome();
    await mkdir(join(dir, '.claude'));
    await symlink(join(home, '.claude', 'settings.json'), join(dir, '.claude', 'settings.json'));
    const run = await runCli(['rules', '--write', '.claude/settings.json'], { cwd: dir, env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `Refusing to write the settings file .claude/settings.json: ${dir}/.claude/settings.json is a symbolic link to ${home}/.claude/settings.json, outside the repository (${dir}).`,
    );
    expect(run.stderr).toContain('The auditor writes only inside the repository');
    expect(await readFile(join(home, '.claude', 'settings.json'), 'utf8')).toBe(USER_SETTINGS);
  });

  it('refuses a .claude folder the PR made a symlink to ~/.claude', async () => {
    const { dir, home, env } = await repoAndHome();
    await symlink(join(home, '.claude'), join(dir, '.claude'));
    const run = await runCli(['rules', '--write', '.claude/settings.json', '--format', 'text'], {
      cwd: dir,
      env,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `${dir}/.claude is a symbolic link to ${home}/.claude, outside the repository (${dir}).`,
    );
    expect(run.stdout).not.toContain('Wrote');
    expect(await readFile(join(home, '.claude', 'settings.json'), 'utf8')).toBe(USER_SETTINGS);
  });

  it('refuses a path that leaves the repository with `..`, and creates nothing there', async () => {
    const { dir, env } = await repoAndHome();
    const run = await runCli(['rules', '--write', '../settings.json'], { cwd: dir, env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `Refusing to write the settings file ../settings.json: it resolves to ${join(dir, '..', 'settings.json')}, outside the repository (${dir}).`,
    );
    expect(await readdir(join(dir, '..'))).toEqual(['repo']);
  });

  it('refuses a dangling link, and does not create its target', async () => {
    const { dir, home, env } = await repoAndHome();
    await mkdir(join(dir, '.claude'));
    const target = join(home, '.claude', 'settings.local.json');
    await symlink(target, join(dir, '.claude', 'settings.json'));
    const run = await runCli(['rules', '--write', '.claude/settings.json'], { cwd: dir, env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `Refusing to write the settings file .claude/settings.json: ${dir}/.claude/settings.json is a symbolic link that leads nowhere.`,
    );
    expect(await readdir(join(home, '.claude'))).toEqual(['settings.json']);
  });

  it("follows a link whose target stays in the repository, from a subfolder of git's work tree too", async () => {
    const { dir, env } = await repoAndHome();
    await exec('git', ['init', '-q'], { cwd: dir });
    await mkdir(join(dir, 'config', 'claude'), { recursive: true });
    await symlink(join(dir, 'config', 'claude'), join(dir, '.claude'));
    await mkdir(join(dir, 'sub'));
    const run = await runCli(
      ['rules', '--write', '../.claude/settings.json', '--class-list', '../mcp-tool-classes.json'],
      { cwd: join(dir, 'sub'), env },
    );
    expect(run.code, run.stderr).toBe(0);
    const written = JSON.parse(
      await readFile(join(dir, 'config', 'claude', 'settings.json'), 'utf8'),
    ) as { permissions: { deny: string[] } };
    expect(written.permissions.deny).toEqual(['mcp__notes__delete_note']);
  });
});

describe('update stays in the repository', () => {
  it('refuses a class list the PR made a symlink to a file outside whose text parses', async () => {
    const { dir, home, env } = await repoAndHome();
    const outside = join(home, 'classes.json');
    await copyFile(join(dir, 'mcp-tool-classes.json'), outside);
    const before = await readFile(outside, 'utf8');
    await symlink(outside, join(dir, 'classes.json'));
    const run = await runCli(['update', '--class-list', 'classes.json', ...NOTES], {
      cwd: dir,
      env,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `Refusing to write the class list classes.json: ${dir}/classes.json is a symbolic link to ${outside}, outside the repository (${dir}).`,
    );
    expect(await readFile(outside, 'utf8')).toBe(before);
  });

  it("refuses a config file's classList that climbs out with `..`", async () => {
    const { dir, env } = await repoAndHome();
    await writeFile(
      join(dir, 'auditor.yml'),
      `classList: ../escaped.json\nservers:\n  notes:\n    command: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(EXAMPLE)}]\n`,
    );
    const run = await runCli(['update', '--config', 'auditor.yml'], { cwd: dir, env });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/Refusing to write the class list .*escaped\.json: it resolves to /);
    expect(await readdir(join(dir, '..'))).toEqual(['repo']);
  });
});

describe('the action writes in the workspace and its own temporary folder only', () => {
  let api: FakeGitHub;
  beforeEach(async () => {
    api = await startGitHubApi({ token: TOKEN });
  });
  afterEach(async () => {
    await api.close();
  });

  it('update mode refuses a class list linked out of the workspace', async () => {
    const dir = await realpath(await tempDir());
    const outside = join(await realpath(await tempDir()), 'classes.json');
    await copyFile(join(ROOT, 'mcp-tool-classes.json'), outside);
    const before = await readFile(outside, 'utf8');
    await symlink(outside, join(dir, 'mcp-tool-classes.json'));
    const run = await runIn(api, dir, { command: `node ${EXAMPLE}`, mode: 'update' });
    expect(run.code).toBe(1);
    expect(run.outputs.result).toBe('error');
    expect(run.stdout).toContain(
      `Refusing to write the class list mcp-tool-classes.json: ${dir}/mcp-tool-classes.json is a symbolic link to ${outside}, outside the repository (${dir}).`,
    );
    expect(await readFile(outside, 'utf8')).toBe(before);
  });

  it('update mode with a working-directory the PR linked out of the workspace writes nothing there', async () => {
    const dir = await realpath(await tempDir());
    const outside = await realpath(await tempDir());
    await symlink(outside, join(dir, 'server'));
    const run = await runIn(api, dir, {
      command: `node ${EXAMPLE}`,
      mode: 'update',
      'working-directory': 'server',
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      `Refusing to write the class list mcp-tool-classes.json: it resolves to ${outside}/mcp-tool-classes.json, outside the repository (${dir}).`,
    );
    expect(await readdir(outside)).toEqual([]);
  });

  it('sarif-file: a folder the PR linked out of the workspace fails the step, and nothing is written there', async () => {
    const { dir, base } = await prWorkspace(api, { base: await notesSpec() });
    const outside = await realpath(await tempDir());
    await symlink(outside, join(dir, 'out'));
    const run = await runIn(api, dir, { command: quote(base), 'sarif-file': 'out/mcp.sarif' });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /::error::Could not write the SARIF file out\/mcp\.sarif \(input sarif-file\): Refusing to write the SARIF file out\/mcp\.sarif: .*\/out is a symbolic link to /,
    );
    expect(await readdir(outside)).toEqual([]);
  });

  it("refuses to write its report through a link planted in the runner's temporary folder", async () => {
    const { dir, base } = await prWorkspace(api, { base: await notesSpec() });
    const runnerTemp = await realpath(await tempDir());
    const elsewhere = await realpath(await tempDir());
    await symlink(elsewhere, join(runnerTemp, 'mcp-annotation-auditor'));
    const run = await runIn(
      api,
      dir,
      { command: quote(base), comment: 'never' },
      { env: { RUNNER_TEMP: runnerTemp } },
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      `Refusing to write the report ${runnerTemp}/mcp-annotation-auditor/report.json: ${runnerTemp}/mcp-annotation-auditor is a symbolic link (to ${elsewhere})`,
    );
    expect(await readdir(elsewhere)).toEqual([]);
  });
});

describe('writeConfined', () => {
  const attempt = (path: string, root: WriteRoot) =>
    writeConfined(path, 'x\n', root, 'the file').then(
      () => 'written',
      (error: unknown) => describeError(error),
    );

  it("refuses any link under a root of the tool's own, even one that stays inside it", async () => {
    const root = await realpath(await tempDir());
    await mkdir(join(root, 'real'));
    await symlink(join(root, 'real'), join(root, 'own'));
    const own: WriteRoot = { path: root, name: "the runner's temporary folder", links: 'none' };
    expect(await attempt(join(root, 'own', 'report.json'), own)).toContain(
      `${root}/own is a symbolic link (to ${root}/real)`,
    );
    expect(await readdir(join(root, 'real'))).toEqual([]);
    expect(await attempt(join(root, 'new', 'report.json'), own)).toBe('written');
  });

  it('refuses to replace a folder, or to write the root itself', async () => {
    const root = await realpath(await tempDir());
    await mkdir(join(root, 'out'));
    const repo: WriteRoot = { path: root, name: 'the repository', links: 'inside' };
    expect(await attempt(join(root, 'out'), repo)).toContain(`${root}/out is not a regular file`);
    expect(await attempt(root, repo)).toContain(`it resolves to ${root}, outside the repository`);
  });
});
