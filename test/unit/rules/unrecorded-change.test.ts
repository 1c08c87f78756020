import { describe, expect, it } from 'vitest';
import { EXAMPLE, tempDir } from '../../support/cli.js';
import { runCliInMemory as runCli } from '../../support/in-memory.js';
import { ruleTable } from '../../support/rule-table.js';

const schema = (field: string) => ({ type: 'object', properties: { [field]: { type: 'string' } } });

ruleTable('unrecorded-change', {
  raises: [
    {
      name: 'a live tool the class list lacks',
      case: { recorded: [], live: [{ name: 'n' }] },
      findings: [
        {
          tool: 'n',
          severity: 'error',
          message: 'The live tool is served but not in the class list.',
          fix: 'Run `update` and commit c.json.',
        },
      ],
    },
    {
      name: 'a recorded tool no longer served',
      case: { recorded: [{ name: 'g' }], live: [] },
      findings: [{ message: 'The live tool is in the class list but no longer served.' }],
    },
    {
      name: 'a hint and the class changed',
      case: {
        recorded: [{ name: 'x', annotations: { readOnlyHint: true } }],
        live: [{ name: 'x' }],
      },
      findings: [
        {
          message:
            'The live tool differs from the class list: readOnlyHint true -> absent; class read -> delete.',
        },
      ],
    },
    {
      name: 'the input schema alone: a notice',
      case: {
        recorded: [{ name: 'x', inputSchema: schema('id') }],
        live: [{ name: 'x', inputSchema: schema('q') }],
      },
      findings: [
        {
          severity: 'notice',
          message:
            "The live tool's input schema differs from the one the class list records (hints, class and title are unchanged).",
          fix: 'Run `update` and commit c.json: the recorded schema is how a later rename of the tool is recognised (and its reason carried over).',
        },
      ],
    },
    {
      // The class list pins the description: a new one is drift to read and record, a notice.
      name: 'only the description changed: a notice',
      case: {
        recorded: [{ name: 'x', description: 'Lists notes.' }],
        live: [{ name: 'x', description: 'Lists all notes.' }],
      },
      findings: [
        {
          severity: 'notice',
          message:
            "The live tool's description differs from the one the class list pins (hints, class and title are unchanged).",
          fix: 'Read the new description (see description-changed), then run `update` and commit c.json: the class list then pins the version reviewed.',
        },
      ],
    },
    {
      name: 'no class list at HEAD',
      case: { run: { noClassList: { classList: 'c.json', updateCommand: 'update' } } },
      findings: [
        {
          message: 'There is no class list at c.json yet.',
          fix: 'Run `update`, review the file, and commit c.json.',
        },
      ],
    },
    {
      name: 'a class-list server no audited server answers to',
      case: {
        run: {
          unauditedServers: {
            servers: [{ server: 'old', tools: 2 }],
            audited: ['s'],
            single: true,
            updateCommand: 'npx auditor update',
            classList: 'c.json',
          },
        },
      },
      findings: [
        {
          message:
            'The class list records 2 tools of server "old", but no audited server has that name (this run audited "s").',
          fix: 'If the server was renamed, pin its name with --server-name old (the server-name input); otherwise remove its entries with `npx auditor update --prune` and commit c.json.',
        },
      ],
    },
  ],
  passes: [
    { name: 'another fact of the run', case: { run: { startRemoved: [] } } },
    {
      name: 'the live tools as recorded',
      case: {
        recorded: [{ name: 'x', annotations: { readOnlyHint: true } }],
        live: [{ name: 'x', annotations: { readOnlyHint: true } }],
      },
    },
  ],
});

describe('unrecorded-change in the report (the in-memory CLI)', () => {
  it('a first check failing on drift alone says run update and commit, and nothing more', async () => {
    const run = await runCli(['check', '--', 'node', EXAMPLE], { cwd: await tempDir() });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      'error  unrecorded-change  -  There is no class list at mcp-tool-classes.json yet.',
    );
    expect(run.stdout.trimEnd().split('\n').at(-1)).toMatch(
      /^FAILED: 1 error, 0 warnings, 0 notices \(fail-on: error\)\. Next: run `[^`]+`, review mcp-tool-classes\.json and commit it\.$/,
    );
  });
});
