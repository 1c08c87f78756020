import { resolve } from 'node:path';
import type { BaseText } from '../audit.js';
import { usableBase } from '../core/classlist.js';
import { readConfigFile, type ConfigFile } from './file.js';
import { DEFAULT_CLASS_LIST } from './defaults.js';
import { AuditError, describeError } from '../errors.js';
import { terminalSafe } from '../escape.js';
import { finding, type Finding } from '../core/findings.js';
import { DEFAULT_POLICIES } from '../core/policies.js';
import {
  FAIL_ON_LEVELS,
  RULE_IDS,
  RULES,
  SEVERITIES,
  type FailOn,
  type RuleId,
  type Severity,
} from '../core/rules.js';

/** Each value's place in `list`. */
function ranks<T extends string>(list: readonly T[]): Record<T, number> {
  return Object.fromEntries(list.map((value, rank) => [value, rank])) as Record<T, number>;
}

/** Severities from the weakest (SEVERITIES is most severe first): a lower rank relaxes a rule. */
const SEVERITY_RANK = ranks<Severity | 'off'>(['off', ...[...SEVERITIES].reverse()]);
/**
 * Fail-on thresholds from the strictest: a higher rank fails fewer runs. FAIL_ON_LEVELS is the
 * severities, most severe first, then never, so its severities are taken in reverse.
 */
const FAIL_ON_RANK = ranks<FailOn>([
  ...FAIL_ON_LEVELS.filter((level) => level !== 'never').reverse(),
  'never',
]);

function severityOf(config: ConfigFile | undefined, rule: RuleId): Severity | 'off' {
  return config?.rules?.[rule] ?? RULES[rule].severity;
}

/**
 * Each way the PR's config file (`head`) relaxes the base commit's (`base`): a rule turned down
 * or off, a new or extended waiver, a lower failOn, a policy removed. The PR's config is allowed
 * to do so, but never silently: each is one config-relaxed finding, at the severity the base's
 * config gives that rule (the config it is about cannot turn it down).
 */
export function configRelaxations(
  base: ConfigFile | undefined,
  head: ConfigFile | undefined,
  where: { base: string; head: string },
): Finding[] {
  const severity = severityOf(base, 'config-relaxed');
  if (severity === 'off') return [];
  const out: string[] = [];
  for (const rule of RULE_IDS) {
    const [before, after] = [severityOf(base, rule), severityOf(head, rule)];
    if (SEVERITY_RANK[after] < SEVERITY_RANK[before])
      out.push(
        `rule ${rule} is turned ${after === 'off' ? 'off' : `down to ${after}`} (was ${before})`,
      );
  }
  const [failBefore, failAfter] = [base?.failOn ?? 'error', head?.failOn ?? 'error'];
  if (FAIL_ON_RANK[failAfter] > FAIL_ON_RANK[failBefore])
    out.push(`failOn is ${failAfter} (was ${failBefore})`);
  const policiesAfter = new Set(head?.policies ?? DEFAULT_POLICIES);
  for (const policy of base?.policies ?? DEFAULT_POLICIES)
    if (!policiesAfter.has(policy)) out.push(`policy ${policy} is removed`);
  for (const waiver of head?.waivers ?? []) {
    const before = (base?.waivers ?? []).find(
      (w) => w.rule === waiver.rule && w.tool === waiver.tool,
    );
    const what = `waiver of ${waiver.rule} for ${JSON.stringify(waiver.tool)}`;
    if (!before) out.push(`new ${what} (${JSON.stringify(waiver.reason)})`);
    else if (
      before.expires !== undefined &&
      (waiver.expires === undefined || waiver.expires > before.expires)
    )
      out.push(`${what} now expires ${waiver.expires ?? 'never'} (was ${before.expires})`);
  }
  return out.map((what) => ({
    ...finding(
      'config-relaxed',
      undefined,
      terminalSafe(
        `The config ${where.head} relaxes the check against ${where.base}: ${what}.`,
        600,
      ),
      {
        fix: 'If the relaxation is intended, a reviewer approves it with the approval label; otherwise restore the setting.',
      },
    ),
    severity,
  }));
}

export interface BaseSource {
  /** A file's text at the base (its path as the settings give it), or null when it has none. */
  read: (path: string) => Promise<string | null>;
  /** The base as people name it: "HEAD~1", "the base commit 0123abcd". */
  label: string;
  /** The config file's path (the same at the base as now). */
  configPath: string;
  /** The config file now, if there is one. */
  headConfig: ConfigFile | undefined;
  /** The class list's path now. */
  headClassList: string;
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
  const findings: Finding[] = [];
  if (found && !same(found.path, headClassList))
    findings.push(
      finding(
        'class-list-moved',
        undefined,
        terminalSafe(
          `The class list is ${headClassList} now, but ${found.path} at ${label}: the two are compared.`,
          600,
        ),
      ),
    );
  findings.push(
    ...configRelaxations(baseConfig, source.headConfig, {
      base: `${configPath} at ${label}`,
      head: configPath,
    }),
  );
  const text = found?.text ?? null;
  const where = `${found?.path ?? headClassList} at ${label}`;
  const checked = usableBase<BaseText>({ text, label, file: where }, where);
  const warning = [...warnings, ...(checked.warning ? [checked.warning] : [])].join(' ');
  return {
    ...(baseConfig ? { config: baseConfig } : {}),
    ...(checked.base ? { base: checked.base } : {}),
    ...(warning ? { warning } : {}),
    findings,
  };
}
