// Adoption as a new user meets it: the package as npm would publish it, installed from its
// tarball into a scratch git repository, then the README's steps and the commands the tool prints.
import { execFile } from 'node:child_process';
import { cp, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { NPX_COMMAND, VERSION } from '../../src/version.js';
import { DIST, ROOT, SERVERS, notesSpec, tempDir, withAnnotations } from '../support/cli.js';

const exec = promisify(execFile);

/** npm and npx, offline: everything comes from the tarball and the local install. */
const npmEnv = (cache: string): NodeJS.ProcessEnv => ({
  ...process.env,
  PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
  npm_config_offline: 'true',
  npm_config_cache: cache,
  npm_config_update_notifier: 'false',
  npm_config_fund: 'false',
  npm_config_audit: 'false',
});

/** A command line as printed, run by a shell as a person would paste it. */
async function sh(line: string, cwd: string, env: NodeJS.ProcessEnv) {
  try {
    const { stdout, stderr } = await exec('sh', ['-c', line], { cwd, env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** The files dist/cli.js loads, following its static and dynamic imports. */
async function cliClosure(dist: string): Promise<string[]> {
  const seen = new Set<string>();
  const next = ['cli.js'];
  while (next.length) {
    const file = next.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = await readFile(join(dist, file), 'utf8');
    for (const m of text.matchAll(/(?:from|import\()\s*"(\.\/[^"]+)"/g))
      next.push(join(dirname(file), m[1] as string));
  }
  return [...seen].map((f) => `dist/${f}`);
}

let tarball: string;
let packed: string[];
let cache: string;

beforeAll(async () => {
  // The package as it would be published: package.json, README, LICENSE and a fresh build.
  const stage = await tempDir();
  cache = await tempDir();
  for (const file of ['package.json', 'README.md', 'LICENSE'])
    await cp(join(ROOT, file), join(stage, file));
  await cp(DIST, join(stage, 'dist'), { recursive: true });
  const { stdout } = await exec('npm', ['pack', '--json', '--pack-destination', stage], {
    cwd: stage,
    env: npmEnv(cache),
  });
  const [info] = JSON.parse(stdout) as [{ filename: string; files: { path: string }[] }];
  tarball = join(stage, info.filename);
  packed = info.files.map((f) => f.path).sort();
}, 120_000);

describe('the npm package', () => {
  it('holds what the CLI needs and nothing else', async () => {
    // dist/package.json makes its .js files ES modules wherever the package is installed.
    const expected = [
      'LICENSE',
      'README.md',
      'package.json',
      'dist/package.json',
      ...(await cliClosure(DIST)),
    ];
    expect(packed).toEqual(expected.sort());
    expect(packed).not.toContain('dist/index.js');
    expect(packed).not.toContain('action.yml');
  });

  it('is ready to publish: bin, engines, repository, a build check first, no runtime installs', async () => {
    const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(pkg.version).toBe(VERSION);
    expect(pkg.bin).toEqual({ 'mcp-annotation-auditor': 'dist/cli.js' });
    expect(pkg.engines).toEqual({ node: '>=20' });
    expect((pkg.repository as { url: string }).url).toMatch(/github\.com/);
    expect((pkg.scripts as Record<string, string>).prepublishOnly).toBe('npm run build:check');
    // The bundle carries its dependencies: installing it installs nothing else.
    expect(pkg.dependencies).toBeUndefined();
    await expect(readFile(join(ROOT, 'LICENSE'), 'utf8')).resolves.toMatch(/^MIT License/);
  });

  it("fits the action's description within the Marketplace's limit", async () => {
    const yml = await readFile(join(ROOT, 'action.yml'), 'utf8');
    const description = /^description: (.*)$/m.exec(yml)?.[1] ?? '';
    expect(description.length).toBeGreaterThan(20);
    expect(description.length).toBeLessThan(125);
  });
});

describe('adopting it in a repository, from the tarball', () => {
  it('install, update, commit, check passes; a dropped hint fails; the printed commands fix it', async () => {
    const repo = await tempDir();
    const env = npmEnv(cache);
    const git = (...args: string[]) => exec('git', args, { cwd: repo, env });
    await git('init', '-q');
    await git('config', 'user.email', 'dev@example.com');
    await git('config', 'user.name', 'Dev');
    await writeFile(
      join(repo, 'package.json'),
      '{"name":"scratch","version":"1.0.0","private":true}\n',
    );
    const spec = await notesSpec();
    await writeFile(join(repo, 'notes.json'), JSON.stringify(spec));
    await writeFile(
      join(repo, '.mcp.json'),
      JSON.stringify({
        mcpServers: {
          notes: { command: 'node', args: [join(SERVERS, 'configurable.mjs'), 'notes.json'] },
        },
      }),
    );

    // 1. Install as a devDependency (offline: the tarball is all it needs).
    expect((await sh(`npm i -D ${tarball}`, repo, env)).code).toBe(0);

    // The first check teaches: one block first, with the exact command to run.
    const first = await sh(`${NPX_COMMAND} check`, repo, env);
    expect(first.code).toBe(1);
    expect(first.stdout.split('\n')[0]).toBe(
      'No class list yet: mcp-tool-classes.json does not exist. To start one:',
    );
    expect(first.stderr).toContain('servers from .mcp.json');
    const printed = /Run this exact command:\n\s+(.+)\n/.exec(first.stdout)?.[1] as string;
    expect(printed).toBe(`npx mcp-annotation-auditor@${VERSION} update`);

    // 2. Write the first class list with the command as printed; 3. commit it.
    const update = await sh(printed, repo, env);
    expect(update.code).toBe(0);
    expect(update.stdout).toContain('UPDATED: mcp-tool-classes.json (3 tools)');
    const list = JSON.parse(await readFile(join(repo, 'mcp-tool-classes.json'), 'utf8')) as {
      tools: Record<string, unknown>;
    };
    expect(Object.keys(list.tools)).toContain('mcp__notes__delete_note');
    await git('add', '-A');
    await git('commit', '-qm', 'Record the MCP tool classes');

    const green = await sh(`${NPX_COMMAND} check`, repo, env);
    expect(green.code).toBe(0);
    expect(green.stdout).toContain('PASSED: 0 errors, 0 warnings, 0 notices');

    // A change drops a hint: check fails and says how to accept it.
    await writeFile(
      join(repo, 'notes.json'),
      JSON.stringify(withAnnotations(spec, 'delete_note', { destructiveHint: undefined })),
    );
    const red = await sh(`${NPX_COMMAND} check`, repo, env);
    expect(red.code).toBe(1);
    expect(red.stdout).toMatch(/hint-dropped\s+delete_note/);
    const fix = /unrecorded-change: Run `([^`]+)`/.exec(red.stdout)?.[1] as string;
    expect(fix).toBe(`npx mcp-annotation-auditor@${VERSION} update`);

    // The change is intended: the printed command, exactly, then commit.
    expect((await sh(fix, repo, env)).code).toBe(0);
    await git('commit', '-qam', 'Accept the dropped hint');
    const after = await sh(`${NPX_COMMAND} check`, repo, env);
    expect(after.stdout).not.toContain('unrecorded-change');
    // Still an error: the directories require the hint, whatever the class list says.
    expect(after.stdout).toMatch(/policy-openai\s+delete_note/);
  }, 180_000);
});
