// A client's problems as the check words them, and Claude Code's settings judged as the check does (the client rules of core/rules/, through
// clients/judge.ts), in the shape tests of one client's model compare: rule id as `id`, message,
// fix, and the file and line the finding points at.
import { claudeCodeState } from '../../src/clients/claude-code/claude-model.js';
import type { RuleMapping, SettingsFile } from '../../src/clients/claude-code/claude-settings.js';
import { claudeCode } from '../../src/clients/claude-code/client.js';
import type { CheckedSettings } from '../../src/clients/claude-code/settings-check.js';
import type { Client, ClientTool } from '../../src/clients/client.js';
import { judgeClient, recordedTool, type ClientCheck } from '../../src/clients/judge.js';
import type { ClassList } from '../../src/core/classlist.js';
import { NPX_COMMAND } from '../../src/version.js';

const MAPPING = { read: 'allow', edit: 'ask', delete: 'deny' } as const;

export interface WordedProblem {
  id: string;
  message: string;
  fix: string;
  file: string;
  line: number;
}

export function wordedProblems<S>(
  client: Client<S>,
  state: S,
  tools: ClientTool[],
): WordedProblem[] {
  const recorded = tools.map((t) => ({ ...t, key: `mcp__${t.server}__${t.tool}` }));
  return judgeClient({ client, state }, recorded, MAPPING).ruleFindings.map((f) => ({
    id: f.rule,
    message: f.message,
    fix: f.fix ?? '',
    file: f.location?.file ?? '',
    line: f.location?.line ?? 0,
  }));
}

/**
 * Claude Code's settings `files` judged against a class list as the check judges them (the audit's
 * client step): findings about one recorded tool, and about the files; fixes name `writeTarget`.
 */
export function checkClaudeSettings(
  list: ClassList,
  files: (SettingsFile | CheckedSettings)[],
  mapping: RuleMapping,
  writeTarget: string,
): ClientCheck {
  // A test's bare record may leave out the hints (none declared).
  const recorded = [...list.tools].map(([key, r]) =>
    recordedTool(key, { ...r, hints: r.hints ?? {} }, mapping),
  );
  return judgeClient(
    {
      client: claudeCode,
      state: claudeCodeState(files),
      rulesCommand: `${NPX_COMMAND} rules --write ${writeTarget}`,
    },
    recorded,
    mapping.classes,
  );
}
