import { ERA_SETTINGS } from '../core/era-names.js';
import { FAIL_ON_LEVELS } from '../core/rules/rule.js';
import {
  DEFAULT_CLASS_LIST,
  DEFAULT_CONFIG,
  DEFAULT_JUSTIFICATIONS,
  DEFAULT_SETTINGS,
  POLICIES,
} from './defaults.js';
import {
  choice,
  commandLine,
  count,
  flagSwitch,
  many,
  seconds,
  text,
  url,
  type ConfigType,
  type Kind,
} from './option-kinds.js';

/*
 * Every option, one row each: its flag (the command line), its input (the action), its key in the
 * config file, the kind of value it takes (read and checked once, option-kinds.ts) and the words
 * help and action.yml say about it. The CLI's parser (cli/args.ts), the action's inputs
 * (inputs.ts), the config file's top-level keys (file.ts), --help (cli/help.ts), action.yml's
 * inputs (scripts/readme.mjs writes them) and every "did you mean" list are made from these rows:
 * an option added is a row added. The order is action.yml's, and each help section's.
 * Light: both entries load it before the server under audit starts.
 */

/** The commands of the command line. */
export const COMMANDS = ['list', 'check', 'update', 'rules', 'justifications'] as const;
export type Command = (typeof COMMANDS)[number];
/** The commands that audit a server (the others read files only). */
const AUDITS = ['list', 'check', 'update'] as const;

/** The formats list, check and update print (`check` alone also prints SARIF). */
export const FORMATS = ['text', 'json', 'markdown', 'sarif'] as const;

/** An option as the command line writes it. */
export interface FlagSpec {
  /** The long name, without its dashes. */
  readonly name: string;
  readonly short?: string;
  /** Its value's placeholder in help (FILE, N); by default a choice's values (json|text). */
  readonly value?: string;
  readonly commands: readonly Command[];
  /**
   * Why each command that does not take it would ignore it: given to one of those, it is refused
   * with the reason. A command with no reason here does not know the flag at all.
   */
  readonly ignoredBy?: Partial<Record<Command, string>>;
  /** Help's section: the command's own options, the server to audit, or the server options. */
  readonly group: 'own' | 'server' | 'common';
  /** Help's words (help.ts wraps them). */
  readonly doc: string;
  /** Where one command takes it differently: its own placeholder, words, or kind of value. */
  readonly per?: Partial<
    Record<
      Command,
      { readonly value?: string; readonly doc?: string; readonly kind?: Kind<unknown> }
    >
  >;
  /** Each value given may itself be a list, split here (--policy claude,openai). */
  readonly split?: RegExp;
}

/** An option as the action's step writes it (action.yml's `inputs:`). */
export interface InputSpec {
  readonly name: string;
  /** action.yml's description, as the README's inputs table shows it. */
  readonly doc: string;
  /** action.yml's default: what the runner passes when the workflow gives none. */
  readonly default?: string;
  /**
   * How several values are written: one per line (blank lines and # comments skipped), words
   * split at commas and spaces, or lines each split at commas.
   */
  readonly list?: 'lines' | 'words' | 'lines-or-commas';
}

/** One option. */
export interface OptionRow<T = unknown> {
  readonly kind: Kind<T>;
  readonly flag?: FlagSpec;
  readonly input?: InputSpec;
  /** Its top-level key in the config file. */
  readonly configKey?: string;
  /** What the config file holds for configKey, where it is not what the kind says. */
  readonly config?: ConfigType;
  /** The command line and the inputs give it to the settings (Overrides, under the row's id). */
  readonly setting?: true;
}

const ONLY_CHECK_LIST = 'list compares the live server with no class list';
const ONLY_CHECK_UPDATE =
  'update writes the class list from the live server and compares it with no base';

/** SARIF is for code scanning: only check has findings to upload. */
const REPORT_FORMAT = choice(
  FORMATS.filter((f) => f !== 'sarif'),
  { notes: { sarif: 'SARIF is for check, which reports findings' } },
);

/** The options, by id (the id is the value's name in parsed values and in Overrides). */
export const OPTIONS = {
  command: {
    kind: commandLine,
    setting: true,
    input: {
      name: 'command',
      doc: `The MCP server's stdio command line, e.g. "node dist/server.js". Run directly, never through a shell. Leave empty to use the servers in the config file.`,
    },
  },
  url: {
    kind: url,
    setting: true,
    flag: {
      name: 'url',
      value: 'URL',
      commands: AUDITS,
      group: 'server',
      doc: 'a Streamable HTTP endpoint',
    },
    input: {
      name: 'url',
      doc: 'A Streamable HTTP MCP endpoint to audit instead of a stdio command.',
    },
  },
  start: {
    kind: commandLine,
    setting: true,
    flag: {
      name: 'start',
      value: "'command line'",
      commands: AUDITS,
      group: 'server',
      doc: 'with --url, launches the HTTP server first and stops it at the end',
    },
    input: {
      name: 'start',
      doc: 'With url, a command line that starts the HTTP server first; the audit waits until the URL answers and stops it at the end.',
    },
  },
  headers: {
    kind: many(text),
    setting: true,
    flag: {
      name: 'header',
      value: "'Name: value'",
      commands: AUDITS,
      group: 'server',
      doc: 'an HTTP header for --url (repeatable)',
    },
    input: {
      name: 'headers',
      doc: 'HTTP headers for url, one "Name: value" per line.',
      list: 'lines',
    },
  },
  env: {
    kind: many(text),
    setting: true,
    flag: {
      name: 'env',
      value: 'KEY=VALUE | KEY',
      commands: AUDITS,
      group: 'common',
      doc: "add to the server's minimal environment (repeatable); a bare KEY passes this process's value through. Nothing else is inherited but PATH, HOME and the like: never GITHUB_TOKEN or other secrets.",
    },
    input: {
      name: 'env',
      doc: "Extra environment for the server, one KEY=VALUE (or a bare KEY to pass this step's value through) per line. Nothing else reaches the server but PATH, HOME and the like.",
      list: 'lines',
    },
  },
  cwd: {
    kind: text,
    setting: true,
    flag: {
      name: 'cwd',
      value: 'DIR',
      commands: AUDITS,
      group: 'common',
      doc: 'working directory for the server',
    },
  },
  workingDirectory: {
    kind: text,
    input: {
      name: 'working-directory',
      doc: 'Directory to run in; the command, config and class list paths are relative to it.',
    },
  },
  config: {
    kind: text,
    flag: {
      name: 'config',
      value: 'FILE',
      commands: COMMANDS,
      group: 'common',
      doc: `config file (default ${DEFAULT_CONFIG} when it exists)`,
    },
    input: {
      name: 'config',
      doc: 'Config file listing servers, policies, rule severities and waivers.',
      default: DEFAULT_CONFIG,
    },
  },
  serverName: {
    kind: text,
    setting: true,
    flag: {
      name: 'server-name',
      value: 'NAME',
      commands: AUDITS,
      group: 'common',
      doc: "name in mcp__<name>__<tool> (default: the server's own name)",
    },
    input: {
      name: 'server-name',
      doc: "The server name in mcp__<server>__<tool>. Default - the server's own reported name, normalised.",
    },
  },
  only: {
    kind: many(text),
    setting: true,
    flag: {
      name: 'server',
      value: 'NAME',
      commands: [...AUDITS, 'justifications'],
      group: 'common',
      doc: 'audit only this server of the config file (repeatable)',
      per: {
        justifications: {
          doc: "the class list's server whose tools the file justifies (needed when two servers record one tool name)",
        },
      },
    },
    input: {
      name: 'servers',
      doc: 'Audit only these servers of the config file (comma-separated names).',
      list: 'words',
    },
  },
  classList: {
    kind: text,
    setting: true,
    configKey: 'classList',
    flag: {
      name: 'class-list',
      value: 'FILE',
      commands: COMMANDS,
      group: 'own',
      doc: `the reviewed class list (default ${DEFAULT_CLASS_LIST})`,
      per: { update: { doc: `the class list to write (default ${DEFAULT_CLASS_LIST})` } },
    },
    input: {
      name: 'class-list',
      doc: `The reviewed class list file. Default - classList from the config file, else ${DEFAULT_CLASS_LIST}.`,
    },
  },
  policies: {
    kind: many(
      choice(POLICIES, { noun: 'policy' }),
      `a comma-separated list of ${POLICIES.join(', ')}`,
    ),
    setting: true,
    configKey: 'policies',
    flag: {
      name: 'policy',
      value: 'LIST',
      commands: ['list', 'check'],
      ignoredBy: { update: 'update checks no policies (it records the live tools as they are)' },
      group: 'own',
      doc: 'claude,openai,explicit (default claude,openai; repeatable)',
      split: /[\s,]+/,
    },
    input: {
      name: 'policies',
      doc: 'Directory profiles to enforce - claude, openai, explicit (comma-separated). Default - policies from the config file, else claude,openai.',
      list: 'words',
    },
  },
  failOn: {
    kind: choice(FAIL_ON_LEVELS),
    setting: true,
    configKey: 'failOn',
    flag: {
      name: 'fail-on',
      value: 'LEVEL',
      commands: ['check'],
      ignoredBy: {
        list: 'list does not pass or fail (it exits 0 unless the audit cannot run)',
        update: 'update records the live tools and does not pass or fail on findings',
      },
      group: 'own',
      doc: 'error (default), warning, notice or never',
    },
    input: {
      name: 'fail-on',
      doc: 'Lowest severity that fails the step - error, warning, notice or never. Default - failOn from the config file, else error.',
    },
  },
  era: {
    kind: choice(ERA_SETTINGS),
    setting: true,
    configKey: 'protocolEra',
    flag: {
      name: 'protocol-era',
      value: 'ERA',
      commands: AUDITS,
      group: 'common',
      doc: 'legacy (default), modern (2026-07-28), or both; every server is audited in it, and also in the era its own protocolEra names',
    },
    input: {
      name: 'protocol-era',
      doc: 'legacy (initialize handshake), modern (2026-07-28, stateless) or both (audits each era and reports tools whose annotations differ). Given, every server is audited in it, and also in the era its own protocolEra in the config file names (legacy and modern - both). Default - the protocolEra of the server in the config file, else of the file, else legacy.',
    },
  },
  concurrency: {
    kind: count('a whole number of servers such as 4'),
    setting: true,
    configKey: 'concurrency',
    flag: {
      name: 'concurrency',
      value: 'N',
      commands: AUDITS,
      group: 'common',
      doc: 'servers of the config file audited at once (default: twice the number of CPU cores, at least 4)',
    },
    input: {
      name: 'concurrency',
      doc: "How many servers of the config file are audited at once (their start-ups overlap; the report keeps the config file's order). Default - concurrency from the config file, else twice the number of CPU cores, at least 4.",
    },
  },
  startTimeout: {
    kind: seconds,
    setting: true,
    configKey: 'startTimeout',
    flag: {
      name: 'start-timeout',
      value: 'SECONDS',
      commands: AUDITS,
      group: 'common',
      doc: 'time to start and finish the handshake (default 30)',
    },
  },
  listTimeout: {
    kind: seconds,
    setting: true,
    configKey: 'listTimeout',
    flag: {
      name: 'list-timeout',
      value: 'SECONDS',
      commands: AUDITS,
      group: 'common',
      doc: 'time for every page of tools/list (default 60)',
    },
  },
  maxPages: {
    kind: count(),
    setting: true,
    configKey: 'maxPages',
    flag: {
      name: 'max-pages',
      value: 'N',
      commands: AUDITS,
      group: 'common',
      doc: 'the most pages of tools/list read (default 1000)',
    },
  },
  maxTools: {
    kind: count(),
    setting: true,
    configKey: 'maxTools',
    flag: {
      name: 'max-tools',
      value: 'N',
      commands: AUDITS,
      group: 'common',
      doc: 'the most tools listed (default 100000)',
    },
  },
  mode: {
    kind: choice(['check', 'update']),
    input: {
      name: 'mode',
      doc: 'check (audit and compare) or update (rewrite the class list in the workspace).',
      default: 'check',
    },
  },
  comment: {
    kind: choice(['auto', 'always', 'never']),
    input: {
      name: 'comment',
      doc: 'auto (comment when the PR changes the tool surface or the check fails, then keep that comment current), always, or never.',
      default: 'auto',
    },
  },
  token: {
    kind: text,
    input: {
      name: 'github-token',
      doc: "Token used only to read the base class list and to write the PR comment. It is kept out of the server's environment; what a hostile server can still reach is in docs/security.md.",
      default: '${{ github.token }}',
    },
  },
  prNumber: {
    kind: count('a pull request number such as 42'),
    input: {
      name: 'pr-number',
      doc: 'The pull request to comment on, for workflows that are not pull_request (e.g. workflow_run). An audit compares with the base commit of that PR, read through the API, and fails the step when the PR cannot be read. A check on an event that names no base commit (issue_comment, check_suite or check_run, workflow_run without report-file) fails without it. With report-file, the PR the triggering workflow_run names is taken when it names one (pr-number must then agree or be empty), and the PR must be open with the head commit that run audited.',
    },
  },
  reportFile: {
    kind: text,
    input: {
      name: 'report-file',
      doc: 'Comment from this JSON report of an earlier run (its report output, e.g. a downloaded artifact) instead of starting a server. For the workflow_run job that comments on fork PRs; see docs/security.md for what it checks before writing.',
    },
  },
  approveLabel: {
    kind: text,
    setting: true,
    configKey: 'approveLabel',
    input: {
      name: 'approve-label',
      doc: "A PR label that turns approvable errors (hint-dropped, class-relaxed, start-removed, server-removed, config-relaxed) into listed notices. The base commit's config approveLabel, when it has one, wins (a PR cannot choose its own label).",
    },
  },
  sarifFile: {
    kind: text,
    input: { name: 'sarif-file', doc: 'Also write the findings as SARIF 2.1.0 to this path.' },
  },
  settings: {
    kind: many(text),
    configKey: 'settings',
    config: { type: 'one-or-list', of: { type: 'string', nonEmpty: true } },
    flag: {
      name: 'settings',
      value: 'FILE',
      commands: ['check'],
      ignoredBy: {
        list: 'list does not judge client rules',
        update: 'update writes the class list; rules --write writes client rules',
      },
      group: 'own',
      doc: `a Claude Code settings file to check against the class list (repeatable, merged in order as Claude Code merges them; default ${DEFAULT_SETTINGS} when it exists)`,
    },
    input: {
      name: 'claude-settings',
      doc: 'Claude Code settings files to check against the class list (newline- or comma-separated; their rules merge as Claude Code merges them). Default - settings from the config file, else .claude/settings.json and .claude/settings.local.json when they exist.',
      list: 'lines-or-commas',
    },
  },
  justifications: {
    kind: text,
    setting: true,
    configKey: 'justifications',
    flag: {
      name: 'justifications',
      value: 'FILE',
      commands: ['check'],
      ignoredBy: {
        list: 'list judges no hint justifications',
        update:
          'update writes the class list; justifications --write writes the justifications file',
      },
      group: 'own',
      doc: `OpenAI's hint justifications file to check with the openai policy (default ${DEFAULT_JUSTIFICATIONS} when it exists)`,
    },
    input: {
      name: 'justifications',
      doc: `OpenAI's hint justifications file (tool-hint-justifications.json), checked against the tools when the openai policy is on. Default - justifications from the config file, else ${DEFAULT_JUSTIFICATIONS} when it exists.`,
    },
  },
  base: {
    kind: text,
    flag: {
      name: 'base',
      value: 'FILE',
      commands: ['check'],
      ignoredBy: { list: ONLY_CHECK_LIST, update: ONLY_CHECK_UPDATE },
      group: 'own',
      doc: 'the class list before the change, to compare with',
    },
  },
  baseRef: {
    kind: text,
    flag: {
      name: 'base-ref',
      value: 'REF',
      commands: ['check'],
      ignoredBy: { list: ONLY_CHECK_LIST, update: ONLY_CHECK_UPDATE },
      group: 'own',
      doc: "read the base class list with git show REF:<class list> (at the path REF's config file names), and compare REF's config file",
    },
  },
  approved: {
    kind: flagSwitch,
    flag: {
      name: 'approved',
      commands: ['check'],
      ignoredBy: {
        list: 'list does not judge findings, so there is nothing to approve',
        update: 'update does not judge findings, so there is nothing to approve',
      },
      group: 'own',
      doc: 'the change is approved: hint-dropped and class-relaxed become notices',
    },
  },
  prune: {
    kind: flagSwitch,
    flag: {
      name: 'prune',
      commands: ['update'],
      ignoredBy: { list: 'list writes no class list', check: 'check writes no class list' },
      group: 'own',
      doc: 'also remove the entries of servers this run does not audit (without it they are kept; every removed entry is listed)',
    },
  },
  format: {
    kind: choice(FORMATS),
    flag: {
      name: 'format',
      commands: AUDITS,
      group: 'own',
      doc: 'output format (default text)',
      per: {
        list: { kind: REPORT_FORMAT },
        update: { kind: REPORT_FORMAT },
        check: {
          doc: "output format (default text; sarif: SARIF 2.1.0 for code scanning, the findings on the class list's lines)",
        },
      },
    },
  },
  rulesFormat: {
    kind: choice(['json', 'text']),
    flag: {
      name: 'format',
      commands: ['rules', 'justifications'],
      group: 'own',
      doc: 'json (default): the settings object; text: a table',
      per: {
        justifications: {
          doc: 'json (default): the file as it would be written; text: what changes',
        },
      },
    },
  },
  clients: {
    kind: many(text),
    configKey: 'clients',
    flag: {
      name: 'client',
      value: 'ID',
      commands: ['rules'],
      group: 'own',
      doc: "the client whose rules to print or write (repeatable, or comma-separated): claude-code (default), codex, gemini, ...; the config file's clients: lists several. Each is written to its own file (--write FILE names it for one client).",
      split: /,/,
    },
  },
  write: {
    kind: text,
    flag: {
      name: 'write',
      value: 'FILE',
      commands: ['rules', 'justifications'],
      group: 'own',
      per: {
        justifications: {
          doc: "create or update OpenAI's hint justifications file (tool-hint-justifications.json) from the class list: the three hints as recorded, each justification a person has to write left as a TODO placeholder; every justification already written is kept byte for byte, save one whose hint changed, which is marked to rewrite with its text kept in the mark. Only inside the repository; a file that does not parse is never overwritten. A second run changes nothing.",
        },
      },
      doc: 'merge into a settings file (e.g. .claude/settings.json): only the mcp__ rules of the class list\'s servers are replaced; every other key, rule and byte stays. Every rule it removes or moves is listed, with why. Written atomically, only inside the repository; a file that does not parse, or holds "permissions" (or one of its lists) twice, is never overwritten. A second run changes nothing.',
    },
  },
  help: {
    kind: flagSwitch,
    flag: { name: 'help', short: 'h', commands: COMMANDS, group: 'common', doc: 'this help' },
  },
} as const satisfies Record<string, OptionRow>;

export type OptionId = keyof typeof OPTIONS;
/** The type of a row's value: what its kind reads. */
type ValueOf<R> = R extends { readonly kind: Kind<infer T> } ? T : never;
/** Values read from one surface, by option id. */
export type OptionValues = { -readonly [K in OptionId]?: ValueOf<(typeof OPTIONS)[K]> };
type SettingId = {
  [K in OptionId]: (typeof OPTIONS)[K] extends { readonly setting: true } ? K : never;
}[OptionId];
/** The values the command line or the inputs give the settings: every field optional, they win. */
export type SettingValues = Pick<OptionValues, SettingId>;

/** The rows, each with its id, in the table's order. */
export const ROWS: readonly (OptionRow & { id: OptionId })[] = Object.entries(OPTIONS).map(
  ([id, row]) => ({ ...(row as OptionRow), id: id as OptionId }),
);

type ConfigId = {
  [K in OptionId]: (typeof OPTIONS)[K] extends { readonly configKey: string } ? K : never;
}[OptionId];
type ConfigValueOf<R> = R extends { readonly config: { readonly type: 'one-or-list' } }
  ? ValueOf<R> | (ValueOf<R> extends (infer I)[] ? I : never)
  : ValueOf<R>;
type ConfigKeyOf<K extends ConfigId> = (typeof OPTIONS)[K] extends { readonly configKey: infer C }
  ? C & string
  : never;
/** The config file's keys that rows give, each with the type of its value. */
export type ConfigValues = {
  [K in ConfigId as ConfigKeyOf<K>]?: ConfigValueOf<(typeof OPTIONS)[K]>;
};

/** The config file's top-level keys that rows give, with what each holds, in the table's order. */
export function configTypes(): [string, ConfigType][] {
  return ROWS.flatMap((row) => {
    if (row.configKey === undefined) return [];
    const type = row.config ?? row.kind.config;
    if (!type) throw new Error(`option ${row.id} has a config key but no config type`);
    return [[row.configKey, type]];
  });
}

/** The values of `values` that the settings take (the rows marked setting). */
export function settingValues(values: OptionValues): SettingValues {
  const picked: Record<string, unknown> = {};
  for (const row of ROWS)
    if (row.setting && values[row.id] !== undefined) picked[row.id] = values[row.id];
  return picked;
}
