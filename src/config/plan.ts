// The run plan, built by the same code for the CLI and the action: the config file (or the
// project's .mcp.json), the servers and their names, and the base state a check compares with
// (the base commit's config, its class list, its approval label). A fix made here holds in both.
import { readTrusted } from '../trusted.js';
import { readBaseState, type BaseRead } from './base.js';
import { baseTree, gitTopLevel, repoPathOf, type BaseTree } from './base-reader.js';
import { activeGit } from '../git.js';
import { AuditError, getErrorMessage } from '../errors.js';
import { terminalSafe } from '../escape.js';
import { DEFAULT_CONFIG, MCP_JSON } from './defaults.js';
import { hasServers, readConfigFile, withProjectServers, type ConfigFile } from './file.js';
import {
  nameFromProject,
  resolveSettings,
  type Overrides,
  type Settings,
  type Surface,
} from './settings.js';

/**
 * What the contents API says of a path at the base commit: its text, null for "not there",
 * undefined when it was not asked (no token), or why it could not say.
 */
export type ApiAnswer = string | null | undefined | { failed: string };

/** The config the run uses; its text is kept so annotations can point at a waiver's line. */
export interface ConfigRead {
  /** What the servers and settings come from: the config file, .mcp.json, or both. */
  file?: ConfigFile;
  /** The config file's path, or .mcp.json's when that alone says what to audit. */
  path: string;
  /** The config file's own text (never .mcp.json's). */
  text?: string;
  /** The config file at the config path, as the PR has it: what its base is compared with. */
  own?: ConfigFile;
  /** Said once: where the servers came from, when not from the config file. */
  note?: string;
  /** A command or URL was given: .mcp.json's servers are not the run's, here or at the base. */
  direct?: boolean;
}

/**
 * The config file at `path` (`required` when named on purpose), with the project's .mcp.json for
 * the servers when nothing else names them: no config file, or one that lists no servers (added,
 * say, only for a waiver). `direct` is a command or URL given on the command line or as input.
 */
export async function readRunConfig(options: {
  path: string;
  required: boolean;
  direct: boolean;
  read?: (path: string) => Promise<string>;
}): Promise<ConfigRead> {
  const { path, required, direct, read = readTrusted } = options;
  let text: string | undefined;
  const own = await readConfigFile(path, required, async (p) => (text = await read(p)));
  const kept = { ...(text !== undefined ? { text } : {}), ...(own ? { own } : {}), direct };
  if (direct || (own && hasServers(own)) || (!own && required))
    return { ...(own ? { file: own } : {}), path, ...kept };
  const project = await readConfigFile(MCP_JSON, false, read);
  if (!project || !hasServers(project)) return { ...(own ? { file: own } : {}), path, ...kept };
  if (!own)
    return {
      file: project,
      path: MCP_JSON,
      direct,
      note: `servers from ${MCP_JSON} (no ${path})`,
    };
  return {
    file: withProjectServers(own, project),
    path,
    ...kept,
    note: `servers from ${MCP_JSON} (${path} lists none)`,
  };
}

/** The run's settings from the plan's config and the overrides; `note` names a server's key. */
export async function planSettings(
  config: ConfigRead,
  overrides: Overrides,
  surface: Surface,
  read?: (path: string) => Promise<string>,
): Promise<{ settings: Settings; note?: string }> {
  const settings = resolveSettings(config.file, config.path, overrides, surface);
  const key = await nameFromProject(settings, overrides.command, read);
  if (key === undefined) return { settings };
  return {
    settings,
    note: `server name "${settings.servers[0]?.name}": its key in ${MCP_JSON}, which has this command line`,
  };
}

/** Where the base commit's config is read: the path given on purpose, else the default one. */
export function baseConfigPath(given: string | undefined): string {
  return given ?? DEFAULT_CONFIG;
}

/**
 * The base state at `ref`: the base commit's config (read at {@link baseConfigPath}, whatever the
 * PR did to its own), its class list, and how the PR's config relaxes the base's. Every path is
 * resolved at the base commit (see base-reader.ts). `api`, when given, is asked first for a
 * repository path; it answers with the text, null for "no such file", or undefined for "ask git".
 * A base that cannot be established (no clone, a commit it lacks) is an error, never "no base".
 */
export async function readBasePlan(options: {
  ref: string;
  label: string;
  /** The directory relative paths start from, as named (not through symlinks). */
  cwd: string;
  configPath: string;
  config: ConfigRead;
  classList: string;
  /** The hint justifications file's path, when the run checks it: the base's is read too. */
  justifications?: string;
  /** Fetch a commit the clone does not hold (the action, from origin). */
  fetch?: boolean;
  /** Where there is no repository: the folder repository paths are taken from. */
  root?: string;
  api?: (repoPath: string) => Promise<ApiAnswer>;
  /**
   * The API's "not there" proves the file absent: the commit is one the API itself named (a
   * pull request's base), so the 404 cannot mean "no such commit". Otherwise git decides.
   */
  apiNamedCommit?: boolean;
}): Promise<BaseRead> {
  const { ref, cwd, api } = options;
  let tree: Promise<BaseTree> | undefined;
  const treeOf = () =>
    (tree ??= baseTree(ref, {
      cwd,
      label: options.label,
      ...(options.fetch ? { fetch: true } : {}),
    }));
  const top = gitTopLevel(cwd);
  const read = async (path: string): Promise<string | null> => {
    const root = (await top) ?? options.root ?? cwd;
    const repoPath = await repoPathOf(path, cwd, root);
    const answered = api ? await api(repoPath) : undefined;
    if (typeof answered === 'string') return answered;
    // "Not there" from the API is checked in the clone when it holds the commit: there, a
    // symlink in the base's tree is followed as git stored it.
    if (answered === null && options.apiNamedCommit) {
      const clone = await top;
      if (clone === undefined || (await activeGit().commit(ref, clone)) === undefined) return null;
    }
    try {
      return await (await treeOf()).read(repoPath);
    } catch (error) {
      if (answered === null || answered === undefined) throw error;
      throw new AuditError(
        `Could not read ${repoPath} at ${options.label}: ${terminalSafe(answered.failed, 300)}; ${getErrorMessage(error)} Without it, what this change does to the reviewed tools (a dropped hint, say) cannot be checked.`,
        "Re-run the job. If it fails again, give the job a token that can read the repository's contents (permissions: contents: read), or check out with fetch-depth: 0.",
      );
    }
  };
  return readBaseState({
    read,
    label: options.label,
    configPath: options.configPath,
    // The config the run takes (the config file, with .mcp.json's servers where it lists none)
    // is compared with the same at the base: servers moved to .mcp.json are still compared.
    headConfig: options.config.file,
    projectServers: !options.config.direct,
    headClassList: options.classList,
    ...(options.justifications !== undefined ? { headJustifications: options.justifications } : {}),
  });
}

/**
 * The label that approves this run's approvable findings: the base commit's config's, else the
 * one given (the action's input). A PR's own config cannot pick the label its PR already carries;
 * `note` says so when it tries.
 */
export function approvalLabelOf(
  base: BaseRead | undefined,
  head: ConfigFile | undefined,
  given: string | undefined,
): { label?: string; note?: string } {
  const fromBase = base?.config?.approveLabel;
  const label = fromBase ?? given;
  const source =
    label === undefined
      ? 'none: the base commit names none, nor does the approve-label input'
      : `"${label}", ${fromBase !== undefined ? "the base commit's" : 'from the approve-label input (the base commit names none)'}`;
  const tried = head?.approveLabel;
  const note =
    tried !== undefined && tried !== label
      ? `approveLabel "${tried}" in the PR's config takes effect once merged: the label that approves this run is ${source}.`
      : undefined;
  return { ...(label !== undefined ? { label } : {}), ...(note ? { note } : {}) };
}
