import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as core from '@actions/core';
import {
  mergePermissions,
  parseMapping,
  permissionsFor,
  serversOf,
  type RuleMapping,
} from '../clients/claude-code/claude-settings.js';
import type { ClientRulesInput } from '../clients/claude-code/client-rules.js';
import { runnerTempRoot, writeConfined, type WriteRoot } from '../confined.js';
import { asChecked } from '../clients/claude-code/claude-model.js';
import { showSettingsAs } from '../clients/claude-code/settings-check.js';
import type { RuleNotesContext } from '../clients/claude-code/rule-notes.js';
import type { ClassList } from '../core/classlist.js';
import { clientRulesInput, clientsInput } from '../config/client-settings.js';
import type { ClientsInput } from '../clients/judge.js';
import { shellQuote } from '../config/settings.js';
import type { ConfigFile } from '../config/file.js';
import type { ActionInputs } from '../config/inputs.js';
import { DEFAULT_CLASS_LIST } from '../config/defaults.js';
import { getErrorMessage } from '../errors.js';
import { terminalSafe } from '../escape.js';
import { readTrusted } from '../trusted.js';
import { NPX_COMMAND } from '../version.js';
import { stepFile } from './step-dir.js';

/*
 * Client rules in the action: the Claude Code settings the check judges (the claude-settings
 * input, else the config file's settings:, else .claude/settings.json when it exists), what the
 * comment says about them, and the `rules` output, a settings file the class list maps to.
 */

export interface ActionClientRules {
  mapping: RuleMapping;
  /** For check: the settings files read, when there are any. */
  check?: ClientRulesInput;
  /** For check: the other clients' committed configs, when there are any. */
  clients?: ClientsInput;
  /** For the comment, with settings checked. */
  notes?: RuleNotesContext;
}

/** The `rules --write` command for this job's inputs, as a person would type it. */
function writeCommand(inputs: ActionInputs, target: string): string {
  const args = [...NPX_COMMAND.split(' '), 'rules'];
  if (inputs.configRequired) args.push('--config', inputs.config);
  const classList = inputs.overrides.classList;
  if (classList !== undefined && classList !== DEFAULT_CLASS_LIST)
    args.push('--class-list', classList);
  const line = [...args, '--write', target].map(shellQuote).join(' ');
  return inputs.workingDirectory ? `cd ${shellQuote(inputs.workingDirectory)} && ${line}` : line;
}

/**
 * The mapping, and in check mode the settings files with each rule's file named from the
 * repository's root (`repoPath`), where annotations point, and the clients' files read below
 * `root`. A settings file Claude Code would drop is a finding of the check (settings-ignored), as
 * it is in the CLI. Files read by the entry before the server started are taken as read then (see
 * trusted.ts).
 */
export async function actionClientRules(
  inputs: ActionInputs,
  file: ConfigFile | undefined,
  configPath: string,
  repoPath: (path: string) => Promise<string>,
  root: Promise<WriteRoot>,
): Promise<ActionClientRules> {
  const mapping = parseMapping(file?.clientRules, configPath);
  if (inputs.mode !== 'check') return { mapping };
  const read = async (path: string) => {
    try {
      return await readTrusted(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  };
  const check = await clientRulesInput(inputs.claudeSettings, file, configPath, read);
  const clients = await clientsInput(file, configPath, {
    root: await root,
    show: repoPath,
    read: readTrusted,
  });
  if (!check) return { mapping, ...(clients ? { clients } : {}) };
  for (const settings of check.files)
    showSettingsAs(asChecked(settings), await repoPath(settings.path));
  return {
    mapping,
    check,
    ...(clients ? { clients } : {}),
    notes: { mapping, writeCommand: writeCommand(inputs, check.writeTarget) },
  };
}

/**
 * The `rules` output: a Claude Code settings file with the permissions the class list (as this
 * run leaves it) maps to, in RUNNER_TEMP. Empty when there is no class list; a failure only warns.
 */
export async function writeRulesOutput(
  list: ClassList | undefined,
  mapping: RuleMapping,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  // Named in a warning if even the step's folder cannot be made.
  let path = join(env.RUNNER_TEMP ?? tmpdir(), 'mcp-annotation-auditor', 'claude-settings.json');
  try {
    if (!list) return core.setOutput('rules', '');
    const text = mergePermissions(undefined, permissionsFor(list, mapping), serversOf(list));
    path = await stepFile(env, 'claude-settings.json', 'the Claude Code settings file');
    const what = 'the Claude Code settings file';
    await writeConfined(path, text, await runnerTempRoot(env), what);
    core.setOutput('rules', path);
  } catch (error) {
    core.setOutput('rules', '');
    core.warning(
      `Could not write the Claude Code settings file ${path} (output rules): ${terminalSafe(getErrorMessage(error), 200)}.`,
    );
  }
}
