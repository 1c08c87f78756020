// Claude Code's other grants in a repository: a custom slash command (.claude/commands/**/*.md)
// or a skill (.claude/skills/**/SKILL.md) whose front matter lists `allowed-tools` lets those
// tools run unasked while it is active, where no ask or deny rule of the settings decides them
// (observed on the binary: test/oracle/claude-code.test.ts). The model may start a skill on its
// own and anyone may type a command, so the check takes each such file as active: its entries
// are allow rules of a project settings file of their own, judged as every other rule is, and
// hooks in its front matter stand as a PermissionRequest hook over every tool.
import { existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { COMMANDS_DIR, SKILLS_DIR } from '../clients/claude-code/paths.js';
import type { CheckedSettings } from '../clients/claude-code/settings-check.js';
import { AuditError } from '../errors.js';
import { listedEarly } from '../trusted.js';
import { filesBelow } from './folder-files.js';

/** The most command and skill files read; more fails the check (a grant is never left unread). */
export const MAX_GRANT_FILES = 500;
/** How deep the folders are followed; deeper fails the check. */
const MAX_DEPTH = 16;
/** The key under which the action's early start keeps its listing (trusted.ts). */
export const GRANT_LISTING = 'claude-grants';

const tooMany = (what: string) =>
  new AuditError(
    `Claude Code's commands and skills: ${what}; the check reads at most ${MAX_GRANT_FILES} files, ${MAX_DEPTH} folders deep.`,
    `Each one can let tools run unasked (allowed-tools), so none is left unread: remove some of ${COMMANDS_DIR}/ and ${SKILLS_DIR}/.`,
  );

const LIMITS = { maxFiles: MAX_GRANT_FILES, maxDepth: MAX_DEPTH, refuse: tooMany };

/** The folders from the current one up to the repository's top (one holding .git), as paths from here. */
function foldersUp(): string[] {
  const here = process.cwd();
  const out: string[] = [];
  for (let dir = here; ; dir = dirname(dir)) {
    out.push(relative(here, dir).split('\\').join('/') || '.');
    const top = existsSync(join(dir, '.git'));
    if (top || dirname(dir) === dir) return out;
  }
}

/**
 * The command and skill files Claude Code would find started here: in .claude/commands and
 * .claude/skills of this folder and of each one above it up to the repository's top, links to
 * folders followed. A deeper tree or more files than the check reads fails it.
 */
export function listGrantFiles(): string[] {
  const out: string[] = [];
  for (const folder of foldersUp()) {
    const at = (dir: string) => (folder === '.' ? dir : `${folder}/${dir}`);
    filesBelow(at(COMMANDS_DIR), (name) => name.endsWith('.md'), out, LIMITS);
    filesBelow(at(SKILLS_DIR), (name) => name === 'SKILL.md', out, LIMITS);
  }
  return out;
}

/**
 * The command and skill files of this run: as the action's early start listed them, before the
 * server under audit could change the folders (action/early.ts), else listed now.
 */
export function grantFiles(): string[] {
  return listedEarly(GRANT_LISTING) ?? listGrantFiles();
}

/**
 * The front matter as Claude Code cuts it: from a first line of `---` to the next `---`,
 * wherever that is (not only on a line of its own); undefined without one.
 */
function frontMatter(text: string): string | undefined {
  return /^---\s*\n([\s\S]*?)---\s*\n?/.exec(
    text.replace(/^\ufeff/, '').replace(/\r\n/g, '\n'),
  )?.[1];
}

/** Splits `a, b(c, d) e` at commas and spaces outside parentheses. */
function splitTools(value: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let word = '';
  for (const char of value) {
    if (char === '(') depth += 1;
    if (char === ')') depth = Math.max(0, depth - 1);
    if (depth === 0 && (char === ',' || /\s/.test(char))) {
      if (word) out.push(word);
      word = '';
    } else word += char;
  }
  if (word) out.push(word);
  return out;
}

/** What a command or skill holds under: the command as typed, or the skill's folder. */
function activeWhile(path: string): string {
  const skill = /(?:^|\/)\.claude\/skills\/(.+)\/SKILL\.md$/.exec(path)?.[1];
  if (skill !== undefined)
    return `the skill ${skill.split('/').pop() ?? skill} is active, which the model may start on its own`;
  const command = /(?:^|\/)\.claude\/commands\/(.+)\.md$/.exec(path)?.[1] ?? path;
  return `the command /${command.replaceAll('/', ':')} runs`;
}

/**
 * A command or skill file as a project settings file: its allow rules are its `allowed-tools`
 * entries (a text split at commas and spaces outside parentheses, or a list of texts), and any
 * `hooks` it declares stand as a PermissionRequest hook over every tool (they run while it is
 * active and cannot be read here); undefined when it holds neither. The front matter is read
 * with YAML's merge keys and aliases resolved. One that is not YAML, or an `allowed-tools` that is
 * neither a text nor a list of texts, is an AuditError naming the file: a grant the check cannot
 * read is never judged as none.
 */
export async function grantsOf(text: string, path: string): Promise<CheckedSettings | undefined> {
  const front = frontMatter(text);
  if (front === undefined) return undefined;
  const { loadYaml } = await import('./file.js');
  const yaml = await loadYaml();
  const unreadable = (why: string) =>
    new AuditError(
      `Claude Code's ${path}: ${why}.`,
      'Its allowed-tools let tools run unasked while it is active: write them as a text ("mcp__server__tool, Read") or a list of texts.',
    );
  let data: unknown;
  try {
    data = yaml.parse(front, { merge: true, maxAliasCount: 1000 });
  } catch (error) {
    throw unreadable(`its front matter is not YAML (${(error as Error).message.split('\n')[0]})`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  const fields = data as Record<string, unknown>;
  const value = fields['allowed-tools'];
  const entries: string[] = [];
  if (typeof value === 'string') entries.push(...splitTools(value));
  else if (Array.isArray(value))
    for (const item of value) {
      if (typeof item !== 'string') throw unreadable('an allowed-tools entry is not a text');
      entries.push(...splitTools(item));
    }
  else if (value !== undefined && value !== null)
    throw unreadable('allowed-tools is neither a text nor a list of texts');
  const hooks = fields.hooks !== undefined && fields.hooks !== null;
  if (!entries.length && !hooks) return undefined;
  // Where each is written: the first line from the key on that holds it (the key's, for a merged
  // or aliased value); a place to point at, not what decides.
  const lines = text.split('\n');
  const lineOf = (word: string, from = 0) => {
    const at = lines.findIndex((line, i) => i >= from && line.includes(word));
    return at < 0 ? undefined : at + 1;
  };
  const key = lineOf('allowed-tools') ?? 1;
  return {
    path,
    text,
    rules: entries.map((rule) => ({
      list: 'allow',
      rule,
      file: path,
      line: lineOf(rule, key - 1) ?? key,
    })),
    source: 'project',
    hooks: hooks
      ? [{ value: '', event: 'PermissionRequest', file: path, line: lineOf('hooks') ?? 1 }]
      : [],
    disabledServers: [],
    needsTrust: false,
    activeWhile: activeWhile(path),
  };
}
