import { describe, expect, it } from 'vitest';
import type { ServerReport } from '../../src/report/report.js';
import { DEFAULT_MAPPING } from '../../src/clients/claude-code/claude-settings.js';
import type { ClaudeCodeDecision } from '../../src/clients/claude-code/client-rules.js';
import type { ToolClass } from '../../src/core/classify.js';
import type { ToolRecord } from '../../src/core/classlist.js';
import type { ToolChange } from '../../src/core/diff.js';
import { ruleNotes } from '../../src/clients/claude-code/rule-notes.js';

const COMMAND = 'npx mcp-annotation-auditor@0.1.0 rules --write .claude/settings.json';
const context = { mapping: DEFAULT_MAPPING, writeCommand: COMMAND };

function record(tool: string, cls: ToolClass): ToolRecord {
  const hints = {
    readOnlyHint: cls === 'read',
    destructiveHint: cls === 'delete',
    idempotentHint: 'absent',
    openWorldHint: false,
  } as ToolRecord['hints'];
  return {
    server: 'notes',
    tool,
    class: cls,
    reach: 'closed',
    hints,
    title: tool,
    titleSource: 'none',
    schema: 'x',
  };
}

function change(tool: string, before?: ToolClass, after?: ToolClass): ToolChange {
  return {
    kind: before === undefined ? 'added' : after === undefined ? 'removed' : 'changed',
    name: `mcp__notes__${tool}`,
    tool,
    ...(before ? { before: record(tool, before) } : {}),
    ...(after ? { after: record(tool, after) } : {}),
    hints: [],
    titleChanged: false,
  };
}

/** A server report with only what the notes read: the changes and each tool's decision. */
function server(
  changes: ToolChange[],
  decisions: Record<string, ClaudeCodeDecision>,
): ServerReport {
  return {
    server: 'notes',
    changes,
    tools: Object.entries(decisions).map(([tool, claudeCode]) => ({
      fullName: `mcp__notes__${tool}`,
      claudeCode,
    })),
  } as unknown as ServerReport;
}

describe('what a class change does to the Claude Code rules (the comment section)', () => {
  it('says the rule before and after, what the settings decide, and whether they disagree', () => {
    const notes = ruleNotes(
      server(
        [
          change('add_note', 'edit', 'read'),
          change('purge', undefined, 'delete'),
          change('old', 'edit'),
        ],
        {
          add_note: {
            decision: 'ask',
            rule: 'mcp__notes__add_note',
            file: '.claude/settings.json',
            line: 7,
          },
          purge: { decision: 'unset' },
        },
      ),
      context,
    );
    expect(notes).toEqual([
      `- \`add_note\` moved edit -> read (rule ask -> **allow**): \`.claude/settings.json\` asks for it (\`mcp__notes__add_note\`, line 7); the class list now maps it to **allow**. Run \`${COMMAND}\`.`,
      `- \`purge\` is new (rule deny): no rule in the checked settings decides it (Claude Code asks); the class list now maps it to **deny**. Run \`${COMMAND}\`.`,
      '- `old` was removed (the class list mapped it to ask): a rule that still names it is stale (`rule-stale`).',
    ]);
  });

  it('keeps hostile names and rules inert as code, and sums up past 20 tools', () => {
    const hostile = 'x`<img src=x>\n@team';
    const changes = Array.from({ length: 25 }, (_, i) =>
      change(i ? `t${i}` : hostile, 'read', 'edit'),
    );
    const notes = ruleNotes(
      server(changes, {
        [hostile]: {
          decision: 'allow',
          rule: 'mcp__notes__*`](http://x)',
          file: '.claude/settings.json',
          line: 2,
        },
      }),
      context,
    );
    expect(notes[0]).toBe(
      '- `x <img src=x> @team` moved read -> edit (rule allow -> **ask**): `.claude/settings.json` allows it (`mcp__notes__* ](http://x)`, line 2); the class list now maps it to **ask**. Run `' +
        COMMAND +
        '`.',
    );
    expect(notes).toHaveLength(21);
    expect(notes[20]).toBe(
      '- _…and 5 more changed tools; 1 of all 25 disagree with the settings. `rules --write` brings the settings in line with the class list._',
    );
  });
});

describe('a tool moved from another server', () => {
  it('says the server it moved from, and the rule before and after', () => {
    const moved: ToolChange = {
      kind: 'renamed',
      name: 'mcp__notes__delete_note',
      tool: 'delete_note',
      renamedFrom: 'mcp__old__delete_note',
      before: { ...record('delete_note', 'delete'), server: 'old' },
      after: record('delete_note', 'edit'),
      hints: [],
      titleChanged: false,
    };
    expect(ruleNotes(server([moved], {}), context)).toEqual([
      '- `delete_note` was moved from server `old` (rule deny -> **ask**).',
    ]);
  });
});
