// The server gets a minimal environment: the auditor's secrets (GITHUB_TOKEN, ACTIONS_*,
// INPUT_*) reach it only when named with --env or in the config file.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inputSecrets } from '../../src/config/inputs.js';
import {
  checkWithoutClassList,
  EXAMPLE,
  freePort,
  ROOT,
  runCli,
  SERVERS,
  tempDir,
  writeConfig,
} from '../support/cli.js';
import {
  auditorEnv,
  BASIC_KEY,
  BASIC_USER,
  CONFIG_VALUE,
  ECHO_SECRETS,
  encodedEchoes,
  GIVEN_VALUE,
  leaks,
  SECRET_ARGS,
  SLASHED_KEY,
} from '../support/echoed-secrets.js';
import { expectCouldNotAudit } from '../support/pids.js';
import { killAllFixtures, spawnFixture } from '../support/spawn-fixture.js';

const ENV_DUMP = join(SERVERS, 'env-dump.mjs');

/** What a GitHub Actions step's environment holds, and must not leak. */
const SECRETS = {
  GITHUB_TOKEN: 'ghs_github-token-value',
  ACTIONS_RUNTIME_TOKEN: 'actions-runtime-token-value',
  ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'oidc-request-token-value',
  ACTIONS_ID_TOKEN_REQUEST_URL: 'https://example.invalid/oidc',
  'INPUT_GITHUB-TOKEN': 'input-github-token-value',
  INPUT_COMMAND: 'node server.js',
  NPM_TOKEN: 'npm-token-value',
  MY_API_KEY: 'api-key-value',
};

/** The variable the auditor adds to every server's environment: an id of that server's own. */
const MARKER = 'MCP_ANNOTATION_AUDITOR_SERVER_ID';
/** pid, time, count and a random part: unique among the servers of every audit running now. */
const MARKER_FORMAT = /^\d+\.\d+\.\d+\.[0-9a-z]+$/;

/** The names a server may get without being named: the base of process.ts. */
const BASE = new Set([
  'PATH',
  'HOME',
  'LOGNAME',
  'USER',
  'SHELL',
  'TERM',
  'LANG',
  'LC_ALL',
  'TMPDIR',
  'TZ',
]);

const stepEnv = (): NodeJS.ProcessEnv => ({ ...process.env, ...SECRETS });

async function serverEnv(args: string[], env = stepEnv()): Promise<Record<string, string>> {
  const out = join(await tempDir(), 'env.json');
  const run = await runCli(['list', ...args, '--', 'node', ENV_DUMP, out], { env });
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(await readFile(out, 'utf8')) as Record<string, string>;
}

function expectNoSecrets(env: Record<string, string>, except: string[] = []): void {
  for (const name of Object.keys(SECRETS))
    if (!except.includes(name))
      expect(env, `${name} reached the server`).not.toHaveProperty([name]);
  const values = Object.entries(SECRETS)
    .filter(([name]) => !except.includes(name))
    .map(([, value]) => value);
  for (const value of Object.values(env)) expect(values).not.toContain(value);
}

describe('the server environment', () => {
  it('holds no GITHUB_TOKEN, ACTIONS_* or INPUT_* unless named: only PATH, HOME and the like, and the marker', async () => {
    const env = await serverEnv([]);
    expectNoSecrets(env);
    expect(env.PATH).toBe(process.env.PATH);
    expect(Object.keys(env).filter((k) => !BASE.has(k))).toEqual([MARKER]);
    expect(env[MARKER]).toMatch(MARKER_FORMAT);
  });

  it('--env NAME passes the auditor’s value through; --env KEY=VALUE sets one', async () => {
    const env = await serverEnv([
      '--env',
      'GITHUB_TOKEN',
      '--env',
      'FOO=bar',
      '--env',
      'EMPTY=',
      '--env',
      'UNSET_IN_AUDITOR',
    ]);
    expect(env.GITHUB_TOKEN).toBe(SECRETS.GITHUB_TOKEN);
    expect(env.FOO).toBe('bar');
    expect(env.EMPTY).toBe('');
    expect(env).not.toHaveProperty(['UNSET_IN_AUDITOR']);
    expectNoSecrets(env, ['GITHUB_TOKEN']);
  });

  it('a name with a dash (INPUT_GITHUB-TOKEN) passes only when named', async () => {
    const env = await serverEnv(['--env', 'INPUT_GITHUB-TOKEN']);
    expect(env['INPUT_GITHUB-TOKEN']).toBe(SECRETS['INPUT_GITHUB-TOKEN']);
    expectNoSecrets(env, ['INPUT_GITHUB-TOKEN']);
  });

  it('env in the config file: a map, a list, and ${NAME}, ${env:NAME}, ${NAME:-default}, ${workspaceFolder}', async () => {
    const dir = await tempDir();
    const mapOut = join(dir, 'map.json');
    const listOut = join(dir, 'list.json');
    const file = await writeConfig(dir, {
      servers: {
        map: {
          command: 'node',
          args: [ENV_DUMP, mapOut],
          env: {
            FOO: 'bar',
            PORT: 8080,
            API_KEY: '${MY_API_KEY}',
            GITHUB_TOKEN: null,
            SAME_KEY: '${env:MY_API_KEY}',
            DEFAULTED: '${NOT_SET_Y:-fallback}',
            DATA: '${workspaceFolder}/data',
          },
        },
        list: { command: 'node', args: [ENV_DUMP, listOut], env: ['FOO=baz', 'NPM_TOKEN'] },
      },
    });
    const run = await runCli(['list', '--config', file], { env: stepEnv() });
    expect(run.code, run.stderr).toBe(0);
    const map = JSON.parse(await readFile(mapOut, 'utf8')) as Record<string, string>;
    expect(map).toMatchObject({
      FOO: 'bar',
      PORT: '8080',
      API_KEY: SECRETS.MY_API_KEY,
      GITHUB_TOKEN: SECRETS.GITHUB_TOKEN,
      SAME_KEY: SECRETS.MY_API_KEY,
      DEFAULTED: 'fallback',
      DATA: `${ROOT.replace(/\/$/, '')}/data`,
    });
    expectNoSecrets(map, ['GITHUB_TOKEN', 'MY_API_KEY']);
    const list = JSON.parse(await readFile(listOut, 'utf8')) as Record<string, string>;
    expect(list).toMatchObject({ FOO: 'baz', NPM_TOKEN: SECRETS.NPM_TOKEN });
    expectNoSecrets(list, ['NPM_TOKEN']);
    // Each server's marker is its own: stopping one never touches the other's processes.
    expect(map[MARKER]).toMatch(MARKER_FORMAT);
    expect(list[MARKER]).toMatch(MARKER_FORMAT);
    expect(map[MARKER]).not.toBe(list[MARKER]);
  });

  it('an HTTP start command gets the same minimal environment', async () => {
    const dir = await tempDir();
    const out = join(dir, 'env.json');
    const dump = `require('node:fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(process.env))`;
    const file = await writeConfig(dir, {
      servers: {
        api: {
          url: `http://127.0.0.1:${await freePort()}/mcp`,
          start: { command: 'node', args: ['-e', dump], env: { FOO: 'bar' } },
        },
      },
    });
    // The start command exits without serving: the audit fails, after it has run (exit code 0
    // may be a wrapper that left its server booting, so the audit waits out the start timeout).
    const run = await runCli(['list', '--config', file, '--start-timeout', '1'], {
      env: stepEnv(),
    });
    expectCouldNotAudit(run, /the start command exited with code 0 meanwhile/);
    const env = JSON.parse(await readFile(out, 'utf8')) as Record<string, string>;
    expect(env.FOO).toBe('bar');
    expect(
      Object.keys(env)
        .filter((k) => !BASE.has(k))
        .sort(),
    ).toEqual(['FOO', MARKER]);
    expectNoSecrets(env);
  });

  it('${NAME} in env that is not set: exit 2, the name and where', async () => {
    const dir = await tempDir();
    const file = await writeConfig(dir, {
      servers: { notes: { command: 'node', args: [ENV_DUMP], env: { KEY: '${NOT_SET_X}' } } },
    });
    expectCouldNotAudit(
      await runCli(['list', '--config', file]),
      /Server "notes" env KEY in \S+ uses \$\{NOT_SET_X\}, which is not set\. Set NOT_SET_X in the environment of the audit/,
    );
  });
});

describe('the suggested update command', () => {
  it('names --env variables but never repeats their values', async () => {
    const run = await checkWithoutClassList(['--env', 'API_KEY=sk-live-123']);
    expect(run.code).toBe(1);
    expect(run.stdout).not.toContain('sk-live-123');
    expect(run.stdout).toContain("--env 'API_KEY=<value>'");
  });
});

describe('secrets in what the audit shows', () => {
  afterAll(killAllFixtures);

  it('a key in the URL path: messages and the report show only scheme, host and port; update shows <url>', async () => {
    const key = 'sk_live_0123456789abcdef';
    const fixture = spawnFixture('http-server.mjs', ['--path', `/v1/${key}/mcp`]);
    const [, url] = await fixture.waitForStderr(/listening on (http:\/\/\S+)/);
    const origin = new URL(url as string).origin;
    const dir = await tempDir();
    const checked = await runCli(['check', '--format', 'json', '--url', url as string], {
      cwd: dir,
    });
    expect(checked.stdout + checked.stderr).not.toContain(key);
    const report = JSON.parse(checked.stdout) as {
      servers: { target: string }[];
      updateCommand: string;
    };
    expect(report.servers[0]?.target).toBe(`${origin}/***`);
    expect(report.updateCommand).toBe(
      "npx mcp-annotation-auditor@0.1.0 update --server-name notes --url '<url>' # replace <url> with the server's URL",
    );
    const text = await runCli(['list', '--url', url as string], { cwd: dir });
    expect(text.stdout).toContain(`notes (${origin}/***, legacy era)`);
    expect(text.stdout + text.stderr).not.toContain(key);
    // The action masks the whole URL and the key in its path before anything is printed.
    expect(inputSecrets({ INPUT_URL: url as string })).toEqual(
      expect.arrayContaining([url as string, key]),
    );
  });

  it('every header value is masked, whatever the header is called', () => {
    expect(
      inputSecrets({ INPUT_HEADERS: 'X-Tenant: acme-prod-7\nAccept: application/json' }),
    ).toEqual(expect.arrayContaining(['acme-prod-7', 'application/json']));
  });

  it('credentials in a stdio command line are redacted in the header line, target and update command', async () => {
    const dbUrl = 'postgresql://app:pw_4f3e2d1c@db.internal/notes';
    const server = ['node', EXAMPLE, dbUrl, '--api-key', 'k_9a8b7c6d'];
    const dir = await tempDir();
    const checked = await runCli(['check', '--format', 'json', '--', ...server], { cwd: dir });
    for (const secret of ['pw_4f3e2d1c', 'k_9a8b7c6d'])
      expect(checked.stdout + checked.stderr).not.toContain(secret);
    const report = JSON.parse(checked.stdout) as {
      servers: { target: string }[];
      updateCommand: string;
    };
    // Run in another folder: the server's path is outside the repository, so it is hidden too.
    expect(report.servers[0]?.target).toBe(
      `node *** postgresql://***@db.internal/*** --api-key ***`,
    );
    expect(report.updateCommand).toBe(
      `npx mcp-annotation-auditor@0.1.0 update --server-name notes -- node '***' 'postgresql://***@db.internal/***' --api-key '***' # replace each *** with the secret it stands for`,
    );
    // Run in the repository, the path inside it is shown.
    const inRepo = await runCli(['check', '--format', 'json', '--', ...server]);
    expect(
      (JSON.parse(inRepo.stdout) as { servers: { target: string }[] }).servers[0]?.target,
    ).toBe(`node ${EXAMPLE} postgresql://***@db.internal/*** --api-key ***`);
    const text = await runCli(['list', '--', ...server], { cwd: dir });
    // The header line (its target cut to 100 characters).
    expect(text.stdout.split('\n')[0]).toMatch(
      /^notes \(node .*postgresql:\/\/\*\*\*@db\.internal/,
    );
    expect(text.stdout).not.toContain('pw_4f3e2d1c');
  });
});

// 22.6 and 22.7: a server given secrets in its arguments and environment (--env, passed through
// by name, a config's env:) that echoes them on stderr and stdout, and fails or serves.
describe('a server that echoes its arguments and environment', () => {
  const envFlags = ['--env', `API_KEY=${GIVEN_VALUE}`, '--env', 'DB_PASSWORD'];
  const server = (mode: 'fail' | 'serve') => ['node', ECHO_SECRETS, mode, ...SECRET_ARGS];

  it('and then fails: the error holds no value it was given, on stderr or stdout (CLI)', async () => {
    for (const format of ['text', 'json', 'markdown']) {
      const run = await runCli(
        ['check', '--format', format, ...envFlags, '--', ...server('fail')],
        { env: auditorEnv() },
      );
      expect(run.code, run.stderr).toBe(2);
      // What it echoed is there, redacted: its stderr and the lines it wrote to stdout.
      expect(run.stderr).toContain('fatal: cannot start with this configuration');
      expect(run.stderr).toContain('env API_KEY=***');
      expect(run.stderr).toContain('Lines the server wrote to stdout that are not JSON-RPC');
      expect(run.stderr).toContain('argv: --header *** *** --root *** --config ***');
      expect(leaks(run.stdout + run.stderr)).toEqual([]);
    }
  });

  it('and then serves: stdoutNoise, the listing, the target and the update command hold none (CLI)', async () => {
    const dir = await tempDir();
    const runs = await Promise.all(
      ['text', 'json', 'markdown'].map((format) =>
        runCli(['check', '--format', format, ...envFlags, '--', ...server('serve')], {
          cwd: dir,
          env: auditorEnv(),
        }),
      ),
    );
    for (const run of runs) {
      expect(run.code, run.stderr).toBe(1);
      expect(leaks(run.stdout + run.stderr)).toEqual([]);
    }
    const report = JSON.parse(runs[1]?.stdout ?? '') as {
      servers: { target: string; stdoutNoise: string[] }[];
      tools: { name: string; title: string }[];
      updateCommand: string;
    };
    expect(report.servers[0]?.stdoutNoise).toContain('env API_KEY=***');
    expect(report.servers[0]?.stdoutNoise).toContain('env DB_PASSWORD=***');
    expect(report.tools.find((t) => t.name === 'list_notes')?.title).toBe(
      'argv: --header *** *** --root *** --config ***',
    );
    expect(report.servers[0]?.target).toBe(
      'node *** serve --header *** https://api.example.com/*** --root *** --config ***',
    );
    expect(report.updateCommand).toContain("--env 'API_KEY=<value>' --env DB_PASSWORD");
    expect(runs[0]?.stdout).toContain('not JSON-RPC messages (first: argv: --header *** ***');
  });

  it('as an HTTP start command that exits: its stderr and stdout in the error hold none (CLI)', async () => {
    const start = ['node', ECHO_SECRETS, 'exit', ...SECRET_ARGS].map((w) => `'${w}'`).join(' ');
    const url = `http://127.0.0.1:${await freePort()}/mcp`;
    const run = await runCli(['list', '--url', url, '--start', start, ...envFlags], {
      env: auditorEnv(),
    });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('The start command exited with code 3');
    expect(run.stderr).toContain('env API_KEY=***');
    expect(run.stderr).toContain('Start command stdout (last lines):');
    expect(leaks(run.stdout + run.stderr)).toEqual([]);
  });

  it('from a config file, env: values are secrets too', async () => {
    const dir = await tempDir();
    const file = await writeConfig(dir, {
      servers: {
        notes: {
          command: 'node',
          args: [ECHO_SECRETS, 'fail', ...SECRET_ARGS],
          env: { SERVICE_TOKEN: CONFIG_VALUE, PASSED: '${DB_PASSWORD}' },
        },
      },
    });
    const run = await runCli(['list', '--config', file], { env: auditorEnv() });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('env SERVICE_TOKEN=***');
    expect(leaks(run.stdout + run.stderr)).toEqual([]);
  });
});

// A key echoed in an encoding: in a Basic header after its user (base64 at another offset than
// its own), in hex, upper case, JSON with `\/`, `%2f`, HTML `&#43;`.
describe('a server that echoes its key encoded', () => {
  const given = (key: string) => ['--env', `API_USER=${BASIC_USER}`, '--env', `API_KEY=${key}`];
  const echoes = (key: string) => encodedEchoes(key, BASIC_USER);

  it('and then exits: stderr holds the Basic header and hex only redacted (CLI)', async () => {
    const run = await runCli(['check', ...given(BASIC_KEY), '--', 'node', ECHO_SECRETS, 'exit']);
    expect(run.code, run.stderr).toBe(2);
    // The user part stays: too short to be a secret, and it is not the key.
    expect(run.stderr).toContain('env basic: Authorization: Basic Ym9iOl***');
    expect(run.stderr).toContain('env hex: *** ***');
    expect(echoes(BASIC_KEY).filter((echo) => (run.stdout + run.stderr).includes(echo))).toEqual(
      [],
    );
  });

  it('and then serves: the tool description holds none of its encodings (CLI)', async () => {
    const run = await runCli(
      ['check', '--format', 'json', ...given(SLASHED_KEY), '--', 'node', ECHO_SECRETS, 'serve'],
      { cwd: await tempDir() },
    );
    expect(run.code, run.stderr).toBe(1);
    const report = JSON.parse(run.stdout) as { tools: { name: string; description?: string }[] };
    const description = report.tools.find((t) => t.name === 'list_notes')?.description ?? '';
    expect(description).toContain('env json slashes: "***"');
    expect(description).toContain('env html: ***');
    expect(echoes(SLASHED_KEY).filter((echo) => description.includes(echo))).toEqual([]);
    expect(run.stderr).not.toContain(SLASHED_KEY.toUpperCase());
  });
});
