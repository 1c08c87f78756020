// A small client for tests of the generic client code (the check, `rules --client`, the PR
// comment): its file `.fake/rules.json` holds {"allow": [names], "deny": [names], "auto": bool};
// with auto on, a tool that declares destructiveHint false runs unasked, as Codex's `auto` does.
import type { Client, ClientTool } from '../../src/clients/client.js';
import { expectedDecision } from '../../src/clients/client.js';
import { AuditError } from '../../src/errors.js';

interface FakeState {
  file?: string;
  allow: string[];
  deny: string[];
  auto: boolean;
  lines: string[];
}

const name = (server: string, tool: string) => `${server}.${tool}`;

function parse(text: string, path: string): Omit<FakeState, 'file'> {
  try {
    const data = JSON.parse(text) as Partial<FakeState>;
    return {
      allow: data.allow ?? [],
      deny: data.deny ?? [],
      auto: data.auto ?? false,
      lines: text.split('\n'),
    };
  } catch {
    throw new AuditError(`The fake file ${path} is not JSON.`, 'Fix it.');
  }
}

const lineOf = (state: FakeState, text: string) =>
  state.lines.findIndex((l) => l.includes(text)) + 1;

export function fakeClient(overrides: Partial<Client> = {}): Client {
  const client: Client<FakeState> = {
    id: 'fake',
    label: 'Fake CLI',
    verified: { binary: 'fake', version: '1.0.0' },
    projectFiles: ['.fake/rules.json'],
    fullName: name,
    read: (files) => {
      const file = files[0];
      return file
        ? { file: file.path, ...parse(file.text, file.path) }
        : { allow: [], deny: [], auto: false, lines: [] };
    },
    configures: (state) => state.file !== undefined,
    decide: (state, tool: ClientTool) => {
      const full = name(tool.server, tool.tool);
      const at = { file: state.file as string, rule: full, line: lineOf(state, `"${full}"`) };
      if (state.deny.includes(full)) return { decision: 'deny', ...at };
      if (state.allow.includes(full)) return { decision: 'allow', ...at };
      if (state.auto && tool.declared.destructiveHint === false)
        return {
          decision: 'allow',
          byClient: 'auto runs it from its annotations (destructiveHint false)',
          file: state.file,
          line: lineOf(state, '"auto"'),
        };
      return { decision: 'ask', byClient: 'it asks by default' };
    },
    problems: (state, tools) =>
      [...state.allow, ...state.deny]
        .filter((r) => !tools.some((t) => name(t.server, t.tool) === r))
        .map((r) => ({
          kind: 'rule-stale' as const,
          rule: `rule "${r}"`,
          why: 'no recorded tool',
          fix: 'Remove it.',
          file: state.file as string,
          line: lineOf(state, `"${r}"`),
        })),
    rulesFile: '.fake/rules.json',
    writeRules: (existing, tools, mapping, path = '.fake/rules.json') => {
      // Refuses what does not parse; keeps every other key.
      if (existing !== undefined) parse(existing, path);
      const pick = (d: string) =>
        tools
          .filter((t) => expectedDecision(t, mapping) === d)
          .map((t) => name(t.server, t.tool))
          .sort();
      const old = JSON.parse(existing ?? '{}') as Record<string, unknown>;
      return `${JSON.stringify({ ...old, allow: pick('allow'), deny: pick('deny') }, null, 2)}\n`;
    },
  };
  return { ...(client as Client), ...overrides };
}
