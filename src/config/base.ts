import { resolve } from 'node:path';
import { usableBase, type BaseText } from '../core/classlist.js';
import { hasServers, readConfigFile, withProjectServers, type ConfigFile } from './file.js';
import { DEFAULT_CLASS_LIST, DEFAULT_JUSTIFICATIONS, MCP_JSON } from './defaults.js';
import { AuditError, describeError } from '../errors.js';
import { terminalSafe } from '../escape.js';
import type { Finding } from '../core/findings.js';
import { runChecks } from '../core/rules.js';
import { configRelaxations } from './relaxations.js';

export interface BaseSource {
  /** A file's text at the base (its path as the settings give it), or null when it has none. */
  read: (path: string) => Promise<string | null>;
  /** The base as people name it: "HEAD~1", "the base commit 0123abcd". */
  label: string;
  /** The config file's path (the same at the base as now). */
  configPath: string;
  /** The config the run takes now (the config file, with .mcp.json's servers where it has none). */
  headConfig: ConfigFile | undefined;
  /** The base's .mcp.json gives the servers where the base config lists none, as now. */
  projectServers?: boolean;
  /** The class list's path now. */
  headClassList: string;
  /** The hint justifications file's path now, when the run checks it (the openai policy). */
  headJustifications?: string;
}

export interface BaseRead {
  /** The base commit's config file, when it has one that parses. */
  config?: ConfigFile;
  /** The base class list; absent when it does not parse (see usableBase). */
  base?: BaseText;
  /** Said once the audit has compared. */
  warning?: string;
  /** Findings about the run: config-relaxed, class-list-moved. */
  findings: Finding[];
  /** The base's hint justifications file (asked for with headJustifications): null, none. */
  justifications?: { path: string; text: string | null };
}

/**
 * The base's hint justifications file: at the path the base's config names (or the default),
 * else at today's path. Its text, or null when the base has none at either.
 */
async function baseJustifications(
  read: BaseSource['read'],
  config: ConfigFile | undefined,
  head: string,
): Promise<{ path: string; text: string | null }> {
  const named = config?.justifications ?? DEFAULT_JUSTIFICATIONS;
  const text = await read(named);
  if (text !== null || resolve(named) === resolve(head)) return { path: named, text };
  return { path: head, text: await read(head) };
}

/**
 * The base config as the run took it at the base: with the base's .mcp.json servers where the
 * base config lists none (or there is none), as readRunConfig does now. A .mcp.json that does not
 * parse at the base only warns, as a base config that does not.
 */
async function withBaseProjectServers(
  baseConfig: ConfigFile | undefined,
  read: BaseSource['read'],
  label: string,
  warnings: string[],
): Promise<ConfigFile | undefined> {
  if (baseConfig && hasServers(baseConfig)) return baseConfig;
  const text = await read(MCP_JSON);
  if (text === null) return baseConfig;
  try {
    const project = await readConfigFile(MCP_JSON, true, () => Promise.resolve(text));
    return project && hasServers(project) ? withProjectServers(baseConfig, project) : baseConfig;
  } catch (error) {
    warnings.push(
      `${MCP_JSON} at ${label} could not be read (${terminalSafe(describeError(error), 300)}); its servers are not compared with the PR's.`,
    );
    return baseConfig;
  }
}

/**
 * The base class list and what the base commit's config says about this run. The class list is
 * read from the path the base commit's config names (or the default path there), and where it
 * is not there, from today's path: a class list moved by the PR (in its config, or by git mv and
 * --class-list) is still compared, and said to have moved. A base config that names a class list
 * the base commit does not hold, at either path, while the PR names another path, is an error:
 * taking it as "no class list" would let every dropped hint pass.
 */
export async function readBaseState(source: BaseSource): Promise<BaseRead> {
  const { read, label, configPath, headClassList } = source;
  const warnings: string[] = [];
  let baseConfig: ConfigFile | undefined;
  // The class list at today's path first: when the base cannot be read, that is what to say.
  const atHeadPath = await read(headClassList);
  const configText = await read(configPath);
  if (configText !== null)
    try {
      baseConfig = await readConfigFile(configPath, true, () => Promise.resolve(configText));
    } catch (error) {
      warnings.push(
        `The config file ${configPath} at ${label} could not be read (${terminalSafe(describeError(error), 300)}); the PR's config is not compared with it.`,
      );
    }
  const compared = source.projectServers
    ? await withBaseProjectServers(baseConfig, read, label, warnings)
    : baseConfig;
  const named = baseConfig?.classList;
  const same = (a: string, b: string) => resolve(a) === resolve(b);
  const paths = [named ?? DEFAULT_CLASS_LIST];
  if (!same(paths[0] as string, headClassList)) paths.push(headClassList);
  let found: { path: string; text: string } | undefined;
  for (const path of paths) {
    const text = same(path, headClassList) ? atHeadPath : await read(path);
    if (text !== null) {
      found = { path, text };
      break;
    }
  }
  // Not found where the base's config put it, and the PR names another path: the base may well
  // have a class list there that this change moves away from review. At an unchanged path, the
  // base simply has none yet.
  if (!found && named !== undefined && !same(named, headClassList))
    throw new AuditError(
      `The config file ${configPath} at ${label} names the class list ${named}, but ${label} holds no file there${same(named, headClassList) ? '' : ` nor at ${headClassList}`}. Without the base class list, what this change does to the reviewed tools cannot be checked.`,
      `Restore the class list at the path the base's config names, or fix classList there first.`,
    );
  const findings: Finding[] =
    found && !same(found.path, headClassList)
      ? runChecks('run', { movedClassList: { head: headClassList, base: found.path, label } })
      : [];
  findings.push(
    ...configRelaxations(compared, source.headConfig, {
      base: `${configPath} at ${label}`,
      head: configPath,
    }),
  );
  const text = found?.text ?? null;
  const where = `${found?.path ?? headClassList} at ${label}`;
  const checked = await usableBase<BaseText>({ text, label, file: where }, where);
  const warning = [...warnings, ...(checked.warning ? [checked.warning] : [])].join(' ');
  const justifications =
    source.headJustifications !== undefined
      ? await baseJustifications(read, baseConfig, source.headJustifications)
      : undefined;
  return {
    ...(baseConfig ? { config: baseConfig } : {}),
    ...(checked.base ? { base: checked.base } : {}),
    ...(justifications ? { justifications } : {}),
    ...(warning ? { warning } : {}),
    findings,
  };
}
