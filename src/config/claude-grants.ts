// Claude Code's other grants in a repository: a custom slash command (.claude/commands/**/*.md)
// or a skill (.claude/skills/<name>/SKILL.md) whose front matter lists `allowed-tools` lets those
// tools run unasked while it is active, where no ask or deny rule of the settings decides them
// (observed on the binary: test/oracle/claude-code.test.ts). The model may start a skill on its
// own and anyone may type a command, so the check takes each such file as active: its entries
// are allow rules of a project settings file of their own, judged as every other rule is.
import { readdirSync } from 'node:fs';
import { COMMANDS_DIR, SKILLS_DIR } from '../clients/claude-code/paths.js';
import { AuditError } from '../errors.js';
import type { CheckedSettings } from '../clients/claude-code/settings-check.js';

/** The most command and skill files read; more fails the check (a grant is never left unread). */
export const MAX_GRANT_FILES = 500;
/** How deep command folders are followed (`/frontend:component` is one level). */
const MAX_DEPTH = 8;

/** Entries of a folder; none when it does not exist or is no folder. */
function entriesOf(dir: string) {
  try {
    return readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw new AuditError(`Could not list ${dir}: ${(error as Error).message}.`);
  }
}

function commandFiles(dir: string, depth: number, out: string[]): void {
  for (const entry of entriesOf(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory() && depth < MAX_DEPTH) commandFiles(path, depth + 1, out);
    else if (!entry.isDirectory() && entry.name.endsWith('.md')) out.push(path);
  }
}

/** The listing of this run, by the directory it was made in (in-process runs change directory). */
let listed: { cwd: string; files: string[] } | undefined;

/**
 * The command and skill files below the current directory (the repository's root), listed once a
 * run: the action lists them before the server under audit starts (action/early.ts), so that what
 * the server does to the folders cannot change what is judged. Links are listed as files and read
 * as every settings file is; a folder reached through a link is not followed.
 */
export function grantFiles(): string[] {
  if (listed?.cwd === process.cwd()) return listed.files;
  const out: string[] = [];
  commandFiles(COMMANDS_DIR, 0, out);
  for (const skill of entriesOf(SKILLS_DIR))
    if (skill.isDirectory()) out.push(`${SKILLS_DIR}/${skill.name}/SKILL.md`);
  if (out.length > MAX_GRANT_FILES)
    throw new AuditError(
      `There are ${out.length} Claude Code command and skill files; the check reads at most ${MAX_GRANT_FILES}.`,
      `Each one can let tools run unasked (allowed-tools), so none is left unread: remove some of ${COMMANDS_DIR}/ and ${SKILLS_DIR}/.`,
    );
  listed = { cwd: process.cwd(), files: out };
  return out;
}

/** The text between a leading `---` line and the next one; undefined without front matter. */
function frontMatter(text: string): { body: string; firstLine: number } | undefined {
  const lines = text.replace(/^\ufeff/, '').split(/\r?\n/);
  if (lines[0]?.trim() !== '---') return undefined;
  const end = lines.findIndex((line, i) => i > 0 && line.trim() === '---');
  if (end < 0) return undefined;
  return { body: lines.slice(1, end).join('\n'), firstLine: 2 };
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

/**
 * A command or skill file as a project settings file whose allow rules are its `allowed-tools`
 * entries, each on the line it is written on; undefined when it grants nothing. A front matter
 * that is not YAML, or an `allowed-tools` that is neither a text nor a list of texts, is an
 * AuditError naming the file: a grant the check cannot read is never judged as none.
 */
export async function grantsOf(text: string, path: string): Promise<CheckedSettings | undefined> {
  const front = frontMatter(text);
  if (!front || !/allowed-tools/.test(front.body)) return undefined;
  const { loadYaml } = await import('./file.js');
  const yaml = await loadYaml();
  const counter = new yaml.LineCounter();
  const document = yaml.parseDocument(front.body, { lineCounter: counter });
  const unreadable = (why: string) =>
    new AuditError(
      `Claude Code's ${path}: ${why}.`,
      'Its allowed-tools let tools run unasked while it is active: write them as a text ("mcp__server__tool, Read") or a list of texts.',
    );
  if (document.errors.length)
    throw unreadable(`its front matter is not YAML (${document.errors[0]?.message})`);
  const lineOf = (node: unknown) =>
    yaml.isNode(node) && node.range ? front.firstLine - 1 + counter.linePos(node.range[0]).line : 1;
  const value = yaml.isMap(document.contents)
    ? document.contents.get('allowed-tools', true)
    : undefined;
  if (value === undefined || value === null) return undefined;
  const items: { text: string; line: number }[] = [];
  if (yaml.isScalar(value) && typeof value.value === 'string')
    items.push(...splitTools(value.value).map((t) => ({ text: t, line: lineOf(value) })));
  else if (yaml.isSeq(value))
    for (const item of value.items) {
      if (!yaml.isScalar(item) || typeof item.value !== 'string')
        throw unreadable('an allowed-tools entry is not a text');
      items.push(...splitTools(item.value).map((t) => ({ text: t, line: lineOf(item) })));
    }
  else if (!(yaml.isScalar(value) && value.value === null))
    throw unreadable('allowed-tools is neither a text nor a list of texts');
  if (!items.length) return undefined;
  return {
    path,
    text,
    rules: items.map((item) => ({ list: 'allow', rule: item.text, file: path, line: item.line })),
    source: 'project',
    hooks: [],
    disabledServers: [],
    needsTrust: false,
    activeWhile: path.startsWith(`${SKILLS_DIR}/`)
      ? `the skill ${path.split('/')[2] ?? ''} is active, which the model may start on its own`
      : `the command /${path.slice(COMMANDS_DIR.length + 1, -'.md'.length).replaceAll('/', ':')} runs`,
  };
}
