// The release path, as far as it can be checked without a registry or GitHub: the workflows are
// well-formed, the release one does each step in order, the package holds what it promises, and
// every place that states the version states the same one.
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { NPX_COMMAND, VERSION } from '../../src/version.js';
import { CLI, ROOT, runNode } from '../support/cli.js';
import { checkWorkflow, stepsOf, type Workflow } from '../support/workflow.js';

const exec = promisify(execFile);
const WORKFLOWS = join(ROOT, '.github/workflows');

async function workflow(name: string): Promise<Workflow> {
  return parse(await readFile(join(WORKFLOWS, name), 'utf8')) as Workflow;
}

describe('the workflows', () => {
  it('every workflow file is one GitHub runs: triggers, jobs, steps, no expression in a script', async () => {
    const files = (await readdir(WORKFLOWS)).filter((f) => /\.ya?ml$/.test(f));
    expect(files).toContain('release.yml');
    for (const file of files) checkWorkflow(await workflow(file), file);
  });

  it('release: on a version tag, checks the version, tests, publishes with provenance, moves v0', async () => {
    const doc = await workflow('release.yml');
    expect(doc.on).toEqual({ push: { tags: ['v[0-9]+.[0-9]+.[0-9]+'] } });
    // Provenance needs the OIDC token; moving the tag needs contents: write. Nothing else.
    expect(doc.permissions).toEqual({ contents: 'write', 'id-token': 'write' });
    const steps = stepsOf(doc);
    const at = (match: (s: (typeof steps)[number]) => boolean, what: string) => {
      const i = steps.findIndex(match);
      expect(i, what).toBeGreaterThanOrEqual(0);
      return i;
    };
    const checkout = at((s) => s.uses?.startsWith('actions/checkout@') ?? false, 'checkout');
    const install = at((s) => s.run === 'npm ci', 'npm ci');
    const version = at((s) => s.run?.includes('dist/cli.js --version') ?? false, 'version check');
    const tests = at((s) => s.run?.startsWith('npm test') ?? false, 'npm test');
    const publish = at((s) => s.run === 'npm publish --provenance --access public', 'publish');
    const major = at(
      (s) => s.run?.includes('git push --force origin "refs/tags/$major"') ?? false,
      'major tag',
    );
    expect([checkout, install, version, tests, publish, major]).toEqual(
      [checkout, install, version, tests, publish, major].sort((a, b) => a - b),
    );
    // npm test (scripts/test.mjs) runs the dist/ check: the published bundle is a fresh build of
    // the tagged source.
    const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.test).toBe('node scripts/test.mjs');
    expect(await readFile(join(ROOT, 'scripts/test.mjs'), 'utf8')).toContain(
      "['build:check', process.execPath, ['scripts/build.mjs', '--check']]",
    );
    // The major tag is derived from the tag that started the run, as a shell variable.
    expect(steps[major]?.env).toEqual({ TAG: '${{ github.ref_name }}' });
    expect(steps[major]?.run).toContain('major="${TAG%%.*}"');
  });

  it("release: the version check's script accepts this tree's version and refuses another tag", async () => {
    const script = stepsOf(await workflow('release.yml')).find((s) =>
      s.run?.includes('dist/cli.js --version'),
    )?.run as string;
    // Run against the fresh build, from a tree whose dist/ is that build.
    const shell = (tag: string) =>
      exec('sh', ['-c', script.replace('node dist/cli.js', `node ${CLI}`)], {
        cwd: ROOT,
        env: { ...process.env, TAG: tag },
      }).then(
        () => 0,
        (e: { code: number }) => e.code,
      );
    expect(await shell(`v${VERSION}`)).toBe(0);
    expect(await shell('v9.9.9')).toBe(1);
  });
});

describe('the version stamp', () => {
  it('package.json, the CLI, its printed commands, the changelog and the docs name one version', async () => {
    const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as {
      version: string;
    };
    expect(pkg.version).toBe(VERSION);
    const printed = await runNode(CLI, ['--version'], { cwd: ROOT, env: process.env });
    expect(printed.stdout).toBe(`${VERSION}\n`);
    expect(NPX_COMMAND).toBe(`npx mcp-annotation-auditor@${VERSION}`);
    const changelog = await readFile(join(ROOT, 'CHANGELOG.md'), 'utf8');
    expect(changelog.split('\n')).toContain(`## ${VERSION}`);
    for (const file of [
      'README.md',
      ...(await readdir(join(ROOT, 'docs'))).map((f) => `docs/${f}`),
    ]) {
      const text = await readFile(join(ROOT, file), 'utf8');
      for (const [, version] of text.matchAll(/npx mcp-annotation-auditor@(\S+?)[\s`]/g))
        expect(version, file).toBe(VERSION);
    }
  });
});

describe('the package', () => {
  it('npm pack --dry-run: the CLI, its package.json, the schema, README and LICENSE, nothing else', async () => {
    const { stdout } = await exec('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: ROOT,
      env: { ...process.env, npm_config_offline: 'true', npm_config_update_notifier: 'false' },
    });
    const [info] = JSON.parse(stdout) as [
      { name: string; version: string; files: { path: string }[] },
    ];
    expect(info.name).toBe('mcp-annotation-auditor');
    expect(info.version).toBe(VERSION);
    const files = info.files.map((f) => f.path);
    for (const path of files)
      expect(path).toMatch(
        /^(LICENSE|README\.md|package\.json|dist\/cli\.js|dist\/package\.json|dist\/chunks\/[\w-]+\.js|schema\/class-list\.schema\.json)$/,
      );
    for (const needed of [
      'dist/cli.js',
      'dist/package.json',
      'schema/class-list.schema.json',
      'README.md',
      'LICENSE',
    ])
      expect(files).toContain(needed);
    // The schema the README points editors at is valid JSON describing a class list.
    const schema = JSON.parse(
      await readFile(join(ROOT, 'schema/class-list.schema.json'), 'utf8'),
    ) as {
      properties?: Record<string, unknown>;
    };
    expect(Object.keys(schema.properties ?? {})).toContain('tools');
  });
});
