// 22.6 and 22.7 in the action: a server given secrets in its arguments and environment (the env
// input, a variable passed through by name, a config's env:) echoes them on stderr and stdout.
// No sink holds one: the log (but the ::add-mask:: lines that mask them), the job summary, the
// outputs, the JSON report and the PR comment.
import { readFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ActionRun } from '../support/action.js';
import { prWorkspace, quote, runIn } from '../support/action-workspace.js';
import { notesSpec } from '../support/cli.js';
import {
  BASIC_KEY,
  BASIC_USER,
  CONFIG_VALUE,
  ECHO_SECRETS,
  encodedEchoes,
  GIVEN_VALUE,
  leaks,
  PASSED_VALUE,
  SECRET_ARGS,
} from '../support/echoed-secrets.js';
import { startGitHubApi, type FakeGitHub } from '../support/github-api.js';

const MARKER = '<!-- mcp-annotation-auditor:notes -->';

/** Everything the run wrote, but the lines that tell the runner what to mask. */
async function sinks(run: ActionRun, api: FakeGitHub): Promise<string> {
  const log = (run.stdout + run.stderr)
    .split('\n')
    .filter((line) => !line.startsWith('::add-mask::'))
    .join('\n');
  const report = run.outputs.report ? await readFile(run.outputs.report, 'utf8') : '';
  const comments = api.commentsOn(1).map((c) => c.body);
  return [log, run.summary, JSON.stringify(run.outputs), report, ...comments].join('\n');
}

/** The values the log was told to mask. */
function masked(run: ActionRun): string[] {
  return run.stdout
    .split('\n')
    .filter((line) => line.startsWith('::add-mask::'))
    .map((line) => line.slice('::add-mask::'.length));
}

describe('the action and a server that echoes its arguments and environment', () => {
  let api: FakeGitHub;

  beforeEach(async () => {
    api = await startGitHubApi();
  });
  afterEach(async () => {
    expect(api.responseViolations).toEqual([]);
    await api.close();
  });

  it('that fails: summary, comment, report, outputs and log hold no value, each masked', async () => {
    const { dir } = await prWorkspace(api, { base: await notesSpec() });
    api.seedComment({ body: `${MARKER}\n### ✅ MCP tool annotations for \`notes\`: passed` });
    const run = await runIn(
      api,
      dir,
      {
        command: quote(['node', ECHO_SECRETS, 'fail', ...SECRET_ARGS]),
        env: `API_KEY=${GIVEN_VALUE}\nDB_PASSWORD`,
        'server-name': 'notes',
      },
      { env: { DB_PASSWORD: PASSED_VALUE } },
    );
    expect(run.code).toBe(1);
    expect(run.outputs.result).toBe('error');
    // What it echoed is there, redacted, in the summary and the comment it marked failed.
    expect(run.summary).toContain('fatal: cannot start with this configuration');
    expect(run.summary).toContain('env API_KEY=***');
    const comment = api.commentsOn(1)[0]?.body ?? '';
    expect(comment).toContain('the audit could not run');
    expect(comment).toContain('env DB_PASSWORD=***');
    expect(await readFile(run.outputs.report ?? '', 'utf8')).toContain('***');
    expect(leaks(await sinks(run, api))).toEqual([]);
    for (const value of [GIVEN_VALUE, PASSED_VALUE, 'tok_live_Zq81mXp', 'k3yInPath9Zq'])
      expect(masked(run)).toContain(value);
  });

  it('that serves, from a config file with env: the comment, summary and report hold none', async () => {
    const config = {
      servers: {
        notes: {
          command: 'node',
          args: [ECHO_SECRETS, 'serve', ...SECRET_ARGS],
          env: { SERVICE_TOKEN: CONFIG_VALUE, PASSED: '${DB_PASSWORD}', API_KEY: GIVEN_VALUE },
        },
      },
    };
    const { dir } = await prWorkspace(api, {
      base: await notesSpec(),
      files: { '.github/mcp-annotation-auditor.yml': JSON.stringify(config) },
    });
    const run = await runIn(api, dir, {}, { env: { DB_PASSWORD: PASSED_VALUE } });
    expect(run.outputs.result, run.stdout).toBeDefined();
    expect(run.outputs.result).not.toBe('error');
    const report = JSON.parse(await readFile(run.outputs.report ?? '', 'utf8')) as {
      servers: { stdoutNoise: string[] }[];
    };
    expect(report.servers[0]?.stdoutNoise).toContain('env SERVICE_TOKEN=***');
    expect(api.commentsOn(1)).toHaveLength(1);
    expect(leaks(await sinks(run, api))).toEqual([]);
    for (const value of [CONFIG_VALUE, PASSED_VALUE, GIVEN_VALUE])
      expect(masked(run)).toContain(value);
  });

  it('that echoes its key in a Basic header and hex: no sink holds them, each form masked', async () => {
    const { dir } = await prWorkspace(api, { base: await notesSpec() });
    const run = await runIn(api, dir, {
      command: quote(['node', ECHO_SECRETS, 'exit']),
      env: `API_USER=${BASIC_USER}\nAPI_KEY=${BASIC_KEY}`,
      'server-name': 'notes',
    });
    expect(run.code).toBe(1);
    expect(run.outputs.result).toBe('error');
    expect(run.summary).toContain('env basic: Authorization: Basic Ym9iOl***');
    expect(run.summary).toContain('env hex: *** ***');
    expect(run.stdout).toMatch(/^::error::.*Basic Ym9iOl\*\*\*/m);
    const echoes = encodedEchoes(BASIC_KEY, BASIC_USER);
    const all = await sinks(run, api);
    expect(echoes.filter((echo) => all.includes(echo))).toEqual([]);
    // The log is told to mask the key's base64 after `bob:` (offset 1), and its hex.
    const hex = Buffer.from(BASIC_KEY).toString('hex');
    const basic = Buffer.from(`${BASIC_USER}:${BASIC_KEY}`).toString('base64');
    for (const form of [BASIC_KEY, hex, hex.toUpperCase(), basic.slice(6, 26)])
      expect(masked(run)).toContain(form);
  });
});
