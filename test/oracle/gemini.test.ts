// The real Gemini CLI is the oracle for check's Gemini verdicts: for each committed config below,
// in a temporary repository, check predicts what Gemini does with list_notes, add_note and
// delete_note of the notes server (tools[].clients.gemini of its JSON report), and the real
// binary, in the same repository, must do it: interactive (over ACP) and headless (-p). Skipped
// with SKIP_ORACLES=1.
import { afterAll, describe, expect, it } from 'vitest';
import type { ClientVerdict } from '../../src/clients/client.js';
import { NOTES_SERVER, removeTempDirs } from '../support/cli.js';
import {
  caseFiles,
  observeGemini,
  PROBE,
  type CaseFiles,
  type GeminiCase,
  type GeminiRun,
  type Observation,
} from './gemini-harness.js';
import { TOOLS, expectPredicted, pooled, predict, writtenRules, type Observed } from './harness.js';

const skip = process.env.SKIP_ORACLES === '1';
afterAll(removeTempDirs);

const SERVER = { command: process.execPath, args: [NOTES_SERVER] };
/** The rules file rules --client gemini writes, which the harness passes with --policy. */
const POLICY = '.gemini/mcp-tool-classes.policy.toml';
/**
 * A policy that stands for the rules file: each case's folder gets it from
 * `rules --client gemini --write` run by the built CLI there, with the example's class list.
 */
const RULES = '(written by rules --client gemini --write)';
const rule = (fields: string) => `[[rule]]\n${fields}\n`;

/** Committed configs, each run interactive: [what it shows, the case]. */
const PLAIN: [string, GeminiCase][] = [
  ['nothing committed: every tool asks', {}],
  ['trust: true', { workspace: { mcpServers: { notes: { ...SERVER, trust: true } } } }],
  [
    'a server entry without a command replaces the user one',
    { workspace: { mcpServers: { notes: { trust: true } } } },
  ],
  ['mcp.allowed', { workspace: { mcp: { allowed: ['notes'] } } }],
  [
    'tools.allowed by full name and by bare name',
    { workspace: { tools: { allowed: ['mcp_notes_list_notes', 'add_note'] } } },
  ],
  [
    'tools.allowed globs Gemini compares whole',
    { workspace: { tools: { allowed: ['mcp_no*', 'mcp_*_list_notes'] } } },
  ],
  [
    'tools.exclude by full name and by bare name',
    { workspace: { tools: { exclude: ['mcp_notes_delete_note', 'add_note'] } } },
  ],
  [
    'confirmationRequired over tools.allowed mcp_notes_*',
    {
      workspace: {
        tools: { allowed: ['mcp_notes_*'], confirmationRequired: ['mcp_notes_delete_note'] },
      },
    },
  ],
  [
    'confirmationRequired against trust: true',
    {
      workspace: {
        mcpServers: { notes: { ...SERVER, trust: true } },
        tools: { confirmationRequired: ['mcp_notes_delete_note'] },
      },
    },
  ],
  [
    'includeTools and excludeTools',
    {
      workspace: {
        mcpServers: {
          notes: {
            ...SERVER,
            includeTools: ['list_notes', 'add_note'],
            excludeTools: ['add_note'],
          },
        },
      },
    },
  ],
  [
    'a workspace policy that allows everything (ignored)',
    { workspacePolicy: rule('mcpName = "*"\ntoolName = "*"\ndecision = "allow"\npriority = 999') },
  ],
  [
    'plan mode with tools.allowed',
    {
      workspace: {
        general: { defaultApprovalMode: 'plan' },
        tools: { allowed: ['mcp_notes_add_note'] },
      },
    },
  ],
  ['yolo in the settings (ignored)', { workspace: { general: { defaultApprovalMode: 'yolo' } } }],
  [
    'a settings file with comments',
    { workspace: '// team settings\n{ /* servers */ "mcp": { "allowed": ["notes"] } }\n' },
  ],
  ['server key my.notes', { key: 'my.notes', workspace: { mcp: { allowed: ['my.notes'] } } }],
];

/** Configs with the committed rules file passed as --policy (one process each). */
const POLICIES: [string, string, GeminiCase][] = [
  ['the rules file (rules --client gemini)', RULES, {}],
  [
    'the rules file against trust: true',
    RULES,
    { workspace: { mcpServers: { notes: { ...SERVER, trust: true } } } },
  ],
  [
    'the rules file against tools.allowed mcp_notes_*',
    RULES,
    { workspace: { tools: { allowed: ['mcp_notes_*'] } } },
  ],
  [
    'a deny at priority 100 against trust: true, an allow by readOnlyHint',
    rule('mcpName = "notes"\ntoolName = "delete_note"\ndecision = "deny"\npriority = 100') +
      rule(
        'mcpName = "*"\ntoolName = "*"\ntoolAnnotations = { readOnlyHint = true }\ndecision = "allow"\npriority = 100',
      ),
    { workspace: { mcpServers: { notes: { ...SERVER, trust: true } } } },
  ],
  [
    'a rule without toolName drops the whole file',
    rule('mcpName = "notes"\ntoolName = "list_notes"\ndecision = "allow"\npriority = 100') +
      rule('mcpName = "notes"\ndecision = "deny"\npriority = 100'),
    {},
  ],
];

/** Headless runs (gemini -p), one process each. */
const HEADLESS: [string, string | undefined, GeminiCase][] = [
  ['headless, nothing committed: no tool offered', undefined, {}],
  ['headless, the rules file: the edit tool is refused', RULES, {}],
  [
    'headless, confirmationRequired against trust: true',
    undefined,
    {
      workspace: {
        mcpServers: { notes: { ...SERVER, trust: true } },
        tools: { confirmationRequired: ['mcp_notes_delete_note'] },
      },
    },
  ],
];

/**
 * What Gemini does, from check's verdict (interactive, as Gemini's terminal and editors run it).
 * Headless (-p), as check's `rules --client gemini` notes say, Gemini refuses a tool that asks and
 * offers no tool that no rule allows: an ask no rule decided is not offered, and trust: true
 * (which runs an asking tool interactively) no longer overrides the rule that asks. Where no
 * committed file configures Gemini, check judges nothing: Gemini asks (headless: offers nothing).
 */
function observable(v: ClientVerdict | undefined, interactive: boolean): Observed {
  if (!v) return interactive ? 'ask' : 'deny';
  if (v.decision === 'hidden' || v.decision === 'deny') return 'deny';
  if (interactive) return v.decision;
  if (v.decision === 'ask') return v.rule === undefined ? 'deny' : 'ask';
  return v.byClient !== undefined && v.rule?.endsWith('trust: true') ? 'ask' : 'allow';
}

/** What check predicts in the case's repository, and whether the probe's tool is offered there. */
async function predicted(c: GeminiCase, folder: CaseFiles, interactive: boolean) {
  const notes = { key: c.key ?? 'notes', args: [NOTES_SERVER] };
  const { servers } = await predict(folder.dir, [notes, PROBE]);
  const verdicts = servers[0]?.gemini;
  const decisions = Object.fromEntries(
    TOOLS.map((t) => [t, observable(verdicts?.[t], interactive)]),
  );
  const probe = servers[1]?.gemini?.list_notes;
  return { decisions, expectsMcp: !c.untrusted && probe?.decision !== 'hidden' };
}

// Processes at once: each is a Gemini CLI with two servers a session.
const slot = pooled(3);

/** Runs a group of cases in one process (ACP) or one each (headless), once, shared by its tests. */
function group(run: GeminiRun, interactive: boolean) {
  let result: Promise<{ seen: Observation[]; expected: Record<string, Observed>[] }> | undefined;
  return () =>
    (result ??= slot(async () => {
      const written = run.policy === RULES;
      const folders = await Promise.all(
        run.cases.map(async (c) => {
          const folder = await caseFiles(c, written ? undefined : run.policy);
          if (written) await writtenRules(folder.dir, 'gemini', POLICY);
          return folder;
        }),
      );
      // check runs beside the client: the harness asks whether a case expects MCP tools after.
      const models = Promise.all(
        run.cases.map((c, i) => predicted(c, folders[i] as CaseFiles, interactive)),
      );
      models.catch(() => undefined); // awaited below; not unhandled while the client runs
      const seen = await observeGemini(
        run,
        folders,
        async (i) => (await models)[i]?.expectsMcp ?? true,
      );
      return { seen, expected: (await models).map((m) => m.decisions) };
    }));
}

const plain = group(
  { mode: 'acp', cases: [...PLAIN.map(([, c]) => c), { untrusted: true }] },
  true,
);
// One process for each policy text, a session for each of its cases.
const byPolicy = new Map<string, ReturnType<typeof group>>();
const policies = POLICIES.map(([, policy], i) => {
  const cases = POLICIES.filter(([, p]) => p === policy).map(([, , c]) => c);
  if (!byPolicy.has(policy)) byPolicy.set(policy, group({ mode: 'acp', policy, cases }, true));
  const index = POLICIES.slice(0, i).filter(([, p]) => p === policy).length;
  return { run: byPolicy.get(policy) as ReturnType<typeof group>, index };
});
const headless = HEADLESS.map(([, policy, c]) =>
  group({ mode: 'headless', ...(policy ? { policy } : {}), cases: [c] }, false),
);

// The timeout is a hang guard for a group that waits its turn in the pool.
describe
  .skipIf(skip)
  .concurrent('the real Gemini CLI does what check predicts', { timeout: 600_000 }, () => {
    it.each(PLAIN.map(([name], i) => [name, i] as const))('interactive, %s', async (name, i) => {
      const { seen, expected } = await plain();
      expectPredicted(expected[i], seen[i]?.observed);
    });

    it('an untrusted folder starts no MCP server, the user’s own included', async () => {
      const { seen } = await plain();
      const last = seen.at(-1) as Observation;
      expect(last.offered).toEqual([]);
      expect(last.observed).toEqual({ list_notes: 'deny', add_note: 'deny', delete_note: 'deny' });
    });

    it.each(POLICIES.map(([name], i) => [name, i] as const))(
      'interactive with --policy, %s',
      async (_name, i) => {
        const { run, index } = policies[i] as (typeof policies)[number];
        const { seen, expected } = await run();
        expectPredicted(expected[index], seen[index]?.observed);
      },
    );

    it.each(HEADLESS.map(([name], i) => [name, i] as const))('%s', async (_name, i) => {
      const { seen, expected } = await (headless[i] as ReturnType<typeof group>)();
      expectPredicted(expected[0], seen[0]?.observed);
    });

    it('with the rules file, list_notes runs, add_note asks and delete_note is refused', async () => {
      const { seen } = await (policies[0] as (typeof policies)[number]).run();
      expect(seen[0]?.observed).toEqual({
        list_notes: 'allow',
        add_note: 'ask',
        delete_note: 'deny',
      });
      expect(seen[0]?.results.get('mcp_notes_list_notes')?.output).toContain('No notes saved.');
    });
  });
