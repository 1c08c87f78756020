// The README and docs/ cannot drift: their tables come from the code, their samples are what the
// tool prints, and every workflow and snippet in them is parsed here. The built CLI prints the
// quick start's sample and the built action posts the sample comment; every other command of the
// docs runs in memory (test/unit/docs-commands.test.ts).
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readConfigFile } from '../../src/config/file.js';
import { ROWS } from '../../src/config/options.js';
import { RULE_IDS, RULES } from '../../src/core/rules.js';
import { NPX_COMMAND } from '../../src/version.js';
import { TOKEN } from '../support/action.js';
import { runIn } from '../support/action-workspace.js';
import { EXAMPLE, ROOT, runCli } from '../support/cli.js';
import { DEFAULT_BASE_SHA, startGitHubApi } from '../support/github-api.js';
import { allDocs, blocks, marked, markedBlock, printedArgs, readme } from '../support/docs.js';
import { checkWorkflow, stepsOf, type Workflow } from '../support/workflow.js';

const run = promisify(execFile);

// Folders made inside the repository, so that the example server finds its node_modules.
const made: string[] = [];
async function workspace(): Promise<string> {
  await mkdir(join(ROOT, '.vitest-tmp'), { recursive: true });
  const dir = await mkdtemp(join(ROOT, '.vitest-tmp', 'docs-'));
  made.push(dir);
  await mkdir(join(dir, 'examples'));
  await symlink(join(ROOT, 'examples/notes'), join(dir, 'examples/notes'));
  await run('git', ['init', '-q'], { cwd: dir });
  return dir;
}
afterAll(async () => {
  await Promise.all(made.map((d) => rm(d, { recursive: true, force: true })));
});

/** One of our commands as a person pastes it, run with the fresh build of the CLI. */
function runPrinted(command: string, cwd: string) {
  return runCli(printedArgs(command), { cwd });
}

describe('docs that cannot drift', () => {
  it("action.yml's inputs match the option table, and the README tables match action.yml", async () => {
    await expect(
      run(process.execPath, [join(ROOT, 'scripts/readme.mjs'), '--check'], { cwd: ROOT }),
    ).resolves.toBeDefined();
  });

  it('the rules table (docs/rules.md) is the one scripts/rules-table.mjs writes from src/core/rules/', async () => {
    await expect(
      run(process.execPath, [join(ROOT, 'scripts/rules-table.mjs'), '--check'], { cwd: ROOT }),
    ).resolves.toBeDefined();
  });

  it('the rules table (docs/rules.md) lists every rule, its default, and what clears it', async () => {
    const section = marked(await readFile(join(ROOT, 'docs/rules.md'), 'utf8'), 'rules');
    const rows = section
      .split('\n')
      .filter((l) => l.startsWith('|'))
      .slice(2)
      .map((line) =>
        line
          .split(/(?<!\\)\|/)
          .slice(1, -1)
          .map((c) => c.trim()),
      );
    expect(rows.map((r) => r.slice(0, 3))).toEqual(
      RULE_IDS.map((id) => [
        `\`${id}\``,
        RULES[id].severity,
        `${RULES[id].summary}${RULES[id].approvable ? ' (approvable)' : ''}`,
      ]),
    );
    for (const [i, id] of RULE_IDS.entries()) {
      const clears = rows[i]?.[3] ?? '';
      expect(clears.length, id).toBeGreaterThan(5);
      // The label is named as clearing a rule exactly where it does.
      if (RULES[id].approvable) expect(clears, id).toMatch(/the label/);
      else expect(clears, id).not.toMatch(/(^|, |or )the label/);
    }
    for (const id of ['policy-claude', 'policy-openai', 'policy-explicit'] as const)
      expect(rows[RULE_IDS.indexOf(id)]?.[3]).toContain('not the label, not `update`');
  });

  it('the README starts with the two-command quick start', async () => {
    const text = await readme();
    expect(text.indexOf('## Quick start')).toBe(text.indexOf('## '));
    const from = text.indexOf('## Quick start');
    const quick = text.slice(from, text.indexOf('\n## ', from));
    expect([...quick.matchAll(/```sh\n(.+)\n```/g)].map((m) => m[1])).toEqual([
      'npm ci && npx mcp-annotation-auditor check -- node examples/notes/server.mjs',
      'npm ci && npm run oracles:install && npm test',
    ]);
  });

  it("the quick start's sample output is what the first command prints", async () => {
    const printed = await runCli(['check', '--', 'node', 'examples/notes/server.mjs']);
    expect(printed.code).toBe(0);
    expect(markedBlock(await readme(), 'quickstart')).toBe(printed.stdout);
  });

  it("the sample comment is the action's comment for the example with add_note relaxed", async () => {
    const dir = await workspace();
    // The base records the example as it is; the PR makes add_note read-only and records it.
    await runPrinted(
      `${NPX_COMMAND} update --server-name notes -- node examples/notes/server.mjs`,
      dir,
    );
    const api = await startGitHubApi({ token: TOKEN });
    try {
      api.setFile(
        DEFAULT_BASE_SHA,
        'mcp-tool-classes.json',
        await readFile(join(dir, 'mcp-tool-classes.json'), 'utf8'),
      );
      await rm(join(dir, 'examples/notes'));
      await mkdir(join(dir, 'examples/notes'));
      const source = await readFile(EXAMPLE, 'utf8');
      const relaxed = source.replace(/(title: 'Add note',[\s\S]*?readOnlyHint: )false/, '$1true');
      expect(relaxed).not.toBe(source);
      await writeFile(join(dir, 'examples/notes/server.mjs'), relaxed);
      await runPrinted(
        `${NPX_COMMAND} update --server-name notes -- node examples/notes/server.mjs`,
        dir,
      );
      const action = await runIn(api, dir, {
        command: 'node examples/notes/server.mjs',
        'server-name': 'notes',
        'approve-label': 'annotations-approved',
      });
      expect(action.code, action.stdout).toBe(0);
      const body = api.commentsOn(1)[0]?.body ?? '';
      if (process.env.PRINT_COMMENT) await writeFile(process.env.PRINT_COMMENT, body);
      expect(markedBlock(await readme(), 'comment')).toBe(body);
    } finally {
      await api.close();
    }
  });

  it('every YAML and JSON snippet parses; workflows use real inputs; config files load', async () => {
    // The inputs as the option table has them (action.yml is written from it).
    const inputs = ROWS.flatMap((row) => (row.input ? [row.input.name] : []));
    for (const [path, text] of await allDocs())
      for (const { lang, body } of blocks(text)) {
        if (lang === 'json') JSON.parse(body);
        if (lang === 'jsonc')
          JSON.parse(body.replace(/\s\/\/[^\n]*/g, '').replace(/,(\s*[}\]])/g, '$1'));
        if (lang !== 'yaml') continue;
        const doc = parse(body) as Record<string, unknown>;
        if (doc.jobs) {
          checkWorkflow(doc as Workflow, path);
          for (const step of stepsOf(doc as Workflow))
            if (step.uses?.startsWith('mcp-annotation-auditor/'))
              for (const key of Object.keys(step.with ?? {}))
                expect(inputs, `${path}: input ${key}`).toContain(key);
        } else if (!Array.isArray(doc) && !('steps' in doc) && !('uses' in doc)) {
          // A config file (or its clientRules part): the auditor's own reader takes it.
          await expect(
            readConfigFile('docs-snippet.yml', true, () => Promise.resolve(body)),
            `${path}:\n${body}`,
          ).resolves.toBeDefined();
        }
      }
  });

  it('the README is a landing page under 300 lines; each docs page is under 250 and every link resolves', async () => {
    const docs = await allDocs();
    for (const [path, text] of docs) {
      expect(text.split('\n').length, path).toBeLessThan(path === 'README.md' ? 300 : 250);
      for (const [, target] of text.matchAll(/\]\(((?!https?:|#)[^)#\s]+)(#[^)]*)?\)/g)) {
        const file = join(ROOT, dirname(path), target as string);
        await expect(readFile(file), `${path} -> ${target}`).resolves.toBeDefined();
      }
    }
    // A placeholder the lead fills, and the page it points to.
    expect(await readme()).toContain('\n## What the check trusts\n');
    expect(docs.map(([p]) => p)).toContain('docs/security.md');
  });
});
