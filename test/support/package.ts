// The npm package as it would be published, packed once from package.json, README, LICENSE, the
// schema and a fresh build, and the tools to install it offline and run what a person pastes.
import { execFile } from 'node:child_process';
import { cp, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { DIST, ROOT, tempDir } from './cli.js';

const exec = promisify(execFile);

/** npm and npx, offline: everything comes from the tarball and the local install. */
export const npmEnv = (cache: string): NodeJS.ProcessEnv => ({
  ...process.env,
  PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
  npm_config_offline: 'true',
  npm_config_cache: cache,
  npm_config_update_notifier: 'false',
  npm_config_fund: 'false',
  npm_config_audit: 'false',
});

/** A command line as printed, run by a shell as a person would paste it. */
export async function sh(line: string, cwd: string, env: NodeJS.ProcessEnv) {
  try {
    const { stdout, stderr } = await exec('sh', ['-c', line], { cwd, env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

export interface Packed {
  tarball: string;
  /** The files in the tarball, sorted. */
  files: string[];
  /** npm's cache for this run, to install from offline. */
  cache: string;
}

/** Packs the package as `npm publish` would, from a stage holding only what it publishes. */
export async function packPackage(): Promise<Packed> {
  const stage = await tempDir();
  const cache = await tempDir();
  for (const file of ['package.json', 'README.md', 'LICENSE'])
    await cp(join(ROOT, file), join(stage, file));
  await mkdir(join(stage, 'schema'));
  await cp(join(ROOT, 'schema'), join(stage, 'schema'), { recursive: true });
  await cp(DIST, join(stage, 'dist'), { recursive: true });
  const { stdout } = await exec('npm', ['pack', '--json', '--pack-destination', stage], {
    cwd: stage,
    env: npmEnv(cache),
  });
  const [info] = JSON.parse(stdout) as [{ filename: string; files: { path: string }[] }];
  return {
    tarball: join(stage, info.filename),
    files: info.files.map((f) => f.path).sort(),
    cache,
  };
}

/** A scratch git repository with the package installed as a devDependency from the tarball. */
export async function repoWithPackage(packed: Packed): Promise<string> {
  const repo = await tempDir();
  const env = npmEnv(packed.cache);
  const git = (...args: string[]) => exec('git', args, { cwd: repo, env });
  await git('init', '-q');
  await git('config', 'user.email', 'dev@example.com');
  await git('config', 'user.name', 'Dev');
  await cp(join(ROOT, 'test/fixtures/servers/notes-spec.json'), join(repo, 'notes.json'));
  await writeFile(
    join(repo, 'package.json'),
    '{"name":"scratch","version":"1.0.0","private":true}\n',
  );
  const install = await sh(`npm i -D ${packed.tarball}`, repo, env);
  if (install.code !== 0) throw new Error(`npm i failed: ${install.stderr}`);
  return repo;
}
