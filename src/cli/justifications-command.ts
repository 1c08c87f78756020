import { confinedPath, repositoryRoot, writeConfined } from '../confined.js';
import { readJustificationsText } from '../files.js';
import { readConfigFile } from '../config/file.js';
import { DEFAULT_CLASS_LIST, DEFAULT_CONFIG, DEFAULT_JUSTIFICATIONS } from '../config/defaults.js';
import { AuditError } from '../errors.js';
import { reviewedJson, terminalSafe } from '../escape.js';
import { loadJsonText } from '../core/jsontext.js';
import {
  wantedHints,
  writeJustifications,
  type JustificationsWrite,
} from '../core/justifications.js';
import { NPX_COMMAND } from '../version.js';
import type { CliResult } from './help.js';
import type { CommandLine } from './args.js';
import { requiredClassList } from './rules-command.js';

/*
 * `justifications`: OpenAI's tool-hint-justifications.json made from the reviewed class list (the
 * live server is never asked), printed or merged into the file. What check says of the file is
 * the justification rules' (core/rules/justification-*.ts).
 */

const shown = (s: string) => terminalSafe(s, 200);

/** What a write did, in words: the entries added, the justifications to rewrite, the orphans. */
function summary(target: string, done: JustificationsWrite, verb: string): string {
  const lines = [
    `${verb} ${shown(target)} (${done.added.length} ${done.added.length === 1 ? 'entry' : 'entries'} added; every justification already written kept).`,
  ];
  for (const r of done.rewrite)
    lines.push(
      `  ${shown(r.tool)}: ${r.hint} is ${String(r.value)} now; ${r.key} is marked to rewrite (its text kept after the mark).`,
    );
  for (const tool of done.orphaned)
    lines.push(
      `  ${shown(tool)}: no longer in the class list; its entry is kept (remove it by hand).`,
    );
  return `${lines.join('\n')}\n`;
}

/** `justifications`: the file the class list makes, printed, or written inside the repository. */
export async function runJustifications({
  values,
  positionals,
  dashdash,
}: CommandLine): Promise<CliResult> {
  if (positionals.length || dashdash)
    throw new AuditError(
      `Unexpected argument "${positionals[0] ?? '--'}": justifications reads the class list and starts no server.`,
      `Run ${NPX_COMMAND} justifications --help for usage.`,
    );
  const configPath = values.config ?? DEFAULT_CONFIG;
  const file = await readConfigFile(configPath, values.config !== undefined);
  const list = await requiredClassList(values.classList ?? file?.classList ?? DEFAULT_CLASS_LIST);
  const only = values.only;
  const records = [...list.tools.values()].filter((r) => !only?.length || only.includes(r.server));
  if (only?.length && !records.length)
    throw new AuditError(
      `The class list records no tool of ${only.map(shown).join(', ')}.`,
      'Give the server name the class list records (its "server" field).',
    );
  const wanted = wantedHints(records);
  const target = values.write ?? file?.justifications ?? DEFAULT_JUSTIFICATIONS;
  const root = values.write !== undefined ? await repositoryRoot() : undefined;
  const what = 'the hint justifications file';
  // Checked before it is read, so that a link out of the repository is never read either.
  if (root) await confinedPath(target, root, what);
  const existing = await readJustificationsText(target);
  await loadJsonText();
  const done = writeJustifications(existing, wanted, target);
  const changed = done.text !== existing;
  if (root && changed) await writeConfined(target, done.text, root, what);
  const format = values.rulesFormat ?? 'json';
  if (root === undefined && format === 'json')
    return { exitCode: 0, stdout: done.text, stderr: '' };
  const verb = !changed ? 'Unchanged:' : root ? 'Wrote' : 'Would write';
  const { added, rewrite, orphaned } = done;
  return {
    exitCode: 0,
    stdout:
      format === 'text'
        ? summary(target, done, verb)
        : `${reviewedJson({ written: changed, file: target, added, rewrite, orphaned }, 2)}\n`,
    stderr: '',
  };
}
