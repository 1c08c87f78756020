// An error nothing catches (a bug in a callback, a rejection nobody awaits) in the built CLI and
// action: one line through the workflow-command filter, no stack, the failing exit code whatever
// the run does after it, and the audited server gone. The error is raised by a preload
// (test/fixtures/uncaught.mjs) once the server, which never answers, has started.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runAction } from '../support/action.js';
import { quote } from '../support/action-workspace.js';
import { ROOT, removeTempDirs, runCli, tempDir, type Run } from '../support/cli.js';
import { expectNoneLeft, watched } from '../support/pids.js';

afterAll(removeTempDirs);

const PRELOAD = `--import=${pathToFileURL(join(ROOT, 'test/fixtures/uncaught.mjs')).href}`;

/**
 * No line the runner reads as a command but the action's own masks, no stack, and the one line
 * that says what happened.
 */
function expectOneFilteredLine(run: Run): void {
  const log = `${run.stdout}\n${run.stderr}`;
  for (const line of log.split('\n'))
    if (!line.startsWith('::add-mask::')) expect(line).not.toMatch(/^\s*::|##\[/);
  expect(log).not.toMatch(/^\s+at /m);
  const said = run.stderr.split('\n').filter((line) => line.includes('boom'));
  expect(said).toHaveLength(1);
  expect(said[0]).toContain(
    'mcp-annotation-auditor: The audit failed unexpectedly: boom ::error::forged\\u000a::set-output name=ok::yes #\\u0023[error]old form.',
  );
  expect(said[0]).toContain('This is a bug in mcp-annotation-auditor');
}

describe.each(['throw', 'reject'])('an uncaught error (%s)', (kind) => {
  it('ends the CLI with exit code 2, in one filtered line, the server gone', async () => {
    const server = await watched('never-answers.mjs');
    const run = await runCli(['check', '--', ...server.command], {
      cwd: await tempDir(),
      env: {
        ...process.env,
        NODE_OPTIONS: PRELOAD,
        UNCAUGHT_AFTER: server.pidFile,
        UNCAUGHT_KIND: kind,
      },
    });
    expect(run.code, run.stderr).toBe(2);
    expectOneFilteredLine(run);
    await expectNoneLeft(server.pidFile);
  });

  it('ends the CLI with exit code 2 when the error comes in the middle of a run that would pass', async () => {
    const dir = await tempDir();
    const journal = join(dir, 'journal.txt');
    const server = await watched('slow-boot.mjs', [
      '--journal',
      journal,
      '--name',
      'notes',
      '--after',
      'thrown uncaught',
    ]);
    const run = await runCli(['list', '--', ...server.command], {
      cwd: dir,
      env: {
        ...process.env,
        NODE_OPTIONS: PRELOAD,
        UNCAUGHT_AFTER: server.pidFile,
        UNCAUGHT_KIND: kind,
        UNCAUGHT_JOURNAL: journal,
      },
    });
    expect(run.code, run.stderr).toBe(2);
    expectOneFilteredLine(run);
    await expectNoneLeft(server.pidFile);
  });

  it('fails the action step with exit code 1, in one filtered line, the server gone', async () => {
    const server = await watched('never-answers.mjs');
    const run = await runAction({
      workspace: await tempDir(),
      inputs: { command: quote(server.command) },
      env: { NODE_OPTIONS: PRELOAD, UNCAUGHT_AFTER: server.pidFile, UNCAUGHT_KIND: kind },
    });
    expect(run.code, run.stderr).toBe(1);
    expectOneFilteredLine(run);
    await expectNoneLeft(server.pidFile);
  });
});
