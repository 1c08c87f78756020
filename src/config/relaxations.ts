import { DEFAULT_MAPPING } from '../clients/claude-code/claude-settings.js';
import { canonicalJson, type ToolClass } from '../core/classify.js';
import { normalizeServerName } from '../core/classlist.js';
import type { Finding } from '../core/findings.js';
import { DEFAULT_POLICIES } from '../core/policies.js';
import {
  FAIL_ON_LEVELS,
  highestSeverity,
  RULE_IDS,
  RULES,
  runChecks,
  SEVERITIES,
  type FailOn,
  type RuleId,
  type Severity,
} from '../core/rules.js';
import { isObject } from '../core/tools.js';
import type { ConfigFile } from './file.js';

/*
 * What the PR's config file changes against the base commit's, as an allow-list: every key that
 * differs relaxes the check (config-relaxed) unless it is one of the few changes below that
 * cannot weaken it. A key the auditor does not know, or one added later without a place here,
 * relaxes by default.
 *
 * The changes that are safe, and why:
 * - rules: a rule raised (a lower one is a relaxation); failOn stricter; policies added.
 * - waivers: one removed, its reason reworded, or its expiry brought forward.
 * - clientRules: a decision made stricter (allow, ask, deny), a per-tool or per-reach deny added.
 * - protocolEra (the file's or a server's): switched to both, which lists every era.
 * - classList: the base commit's list is still what the PR is compared with (base.ts reads it
 *   where the base's config names it, and says class-list-moved).
 * - startTimeout, listTimeout, maxPages, maxTools: a server that runs past them fails the run
 *   (exit 2), so a lower one cannot let a listing through short; concurrency only orders work.
 * - servers (mcpServers): one added is one more audited; one removed whose tools the base class
 *   list records is server-removed, or compared as renamed, already.
 * - a server's start configuration (type, command, args, cwd, env, url, headers, start): the
 *   audited server's tools are still compared with the base's, and a tool that then disappears is
 *   start-removed (an error, not the tool-removed notice): see startChanges. Calling the change
 *   itself config-relaxed would fail every PR that bumps a server's version or adds a flag, and
 *   what it can hide (a tool the new command no longer lists) is caught where it shows.
 * - a server's description or timeout, which only clients read.
 * Everything else (approveLabel, settings, other clientRules changes, a server's alwaysAllow or
 * autoApprove, keys of other clients, unknown keys) relaxes the check when it differs.
 */

/** A difference between two values, at a dotted path. */
interface Leaf {
  path: string;
  before: unknown;
  after: unknown;
}

/** Each place where `before` and `after` differ: objects key by key, anything else whole. */
function leaves(before: unknown, after: unknown, path: string): Leaf[] {
  // An object added or removed is told key by key: what it sets, not its whole text.
  if ((isObject(before) || before === undefined) && (isObject(after) || after === undefined)) {
    if (before === undefined && after === undefined) return [];
    before ??= {};
    after ??= {};
    const [b, a] = [before as Record<string, unknown>, after as Record<string, unknown>];
    const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])].sort();
    return keys.flatMap((key) => leaves(b[key], a[key], `${path}.${key}`));
  }
  return canonicalJson(before) === canonicalJson(after) ? [] : [{ path, before, after }];
}

/** A value as a reviewer reads it in a message; only for keys whose values are not secrets. */
function shown(value: unknown): string {
  return value === undefined ? 'unset' : JSON.stringify(value);
}

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

/**
 * A rule's findings by the severity they are filed at: its default, and above it where some are
 * filed higher on purpose (class-relaxed of a delete tool). A config that sets the rule moves
 * both to what it sets; one that leaves it unset leaves each at its own.
 */
function levelsOf(rule: RuleId): Severity[] {
  return [...new Set([RULES[rule].severity, highestSeverity(rule)])];
}

type Judge = (base: ConfigFile | undefined, head: ConfigFile | undefined) => string[];

/** A rule whose findings, at any level they are filed at, are less severe under `head`. */
const rulesRelaxed: Judge = (base, head) =>
  RULE_IDS.flatMap((rule) => {
    for (const level of levelsOf(rule)) {
      const [before, after] = [base?.rules?.[rule] ?? level, head?.rules?.[rule] ?? level];
      if (SEVERITY_RANK[after] < SEVERITY_RANK[before])
        return [
          `rule ${rule} is turned ${after === 'off' ? 'off' : `down to ${after}`} (was ${before})`,
        ];
    }
    return [];
  });

const failOnRelaxed: Judge = (base, head) => {
  const [before, after] = [base?.failOn ?? 'error', head?.failOn ?? 'error'];
  return FAIL_ON_RANK[after] > FAIL_ON_RANK[before] ? [`failOn is ${after} (was ${before})`] : [];
};

const policiesRelaxed: Judge = (base, head) => {
  const after = new Set(head?.policies ?? DEFAULT_POLICIES);
  return (base?.policies ?? DEFAULT_POLICIES)
    .filter((policy) => !after.has(policy))
    .map((policy) => `policy ${policy} is removed`);
};

/*
 * `clients:` names the clients whose rules `rules` writes and whose decisions the PR comment
 * shows for each changed tool: a client added only adds what is judged and said; one removed
 * drops what reviewers are shown (or written) for it.
 */
const clientsRelaxed: Judge = (base, head) => {
  const after = new Set(head?.clients ?? []);
  return [...new Set(base?.clients ?? [])]
    .filter((id) => !after.has(id))
    .map((id) => `client ${JSON.stringify(id)} is removed from clients`);
};

const waiversRelaxed: Judge = (base, head) =>
  (head?.waivers ?? []).flatMap((waiver) => {
    const before = (base?.waivers ?? []).find(
      (w) => w.rule === waiver.rule && w.tool === waiver.tool,
    );
    const what = `waiver of ${waiver.rule} for ${JSON.stringify(waiver.tool)}`;
    if (!before) return [`new ${what} (${JSON.stringify(waiver.reason)})`];
    if (
      before.expires !== undefined &&
      (waiver.expires === undefined || waiver.expires > before.expires)
    )
      return [`${what} now expires ${waiver.expires ?? 'never'} (was ${before.expires})`];
    return [];
  });

/** The era the file gives servers that name none (the run's default, legacy, without one). */
function fileEra(config: ConfigFile | undefined): string {
  return config?.protocolEra ?? 'legacy';
}

/** An era setting changed to anything but both: some era's listing is no longer audited. */
function eraRelaxed(before: string, after: string, what: string): string[] {
  return after !== before && after !== 'both'
    ? [
        `${what} is ${after} (was ${before}): the ${before === 'both' ? 'other era is' : `${before} era is`} no longer audited`,
      ]
    : [];
}

type ServerEntry = NonNullable<ConfigFile['servers']>[string];

/** A config's server entries by key, as the run takes them (servers over mcpServers). */
function entriesOf(config: ConfigFile | undefined): Record<string, ServerEntry> {
  return { ...(config?.mcpServers ?? {}), ...(config?.servers ?? {}) };
}

/** How a server is started: compared by startChanges, not relaxing on its own. */
const START_KEYS = ['type', 'command', 'args', 'cwd', 'env', 'url', 'headers', 'start'];
/** Server keys only clients read, which cannot change what the auditor lists. */
const SAFE_SERVER_KEYS = ['description', 'timeout'];

/**
 * The pairs of a base server entry and the head entry it is compared with: the same key, and for
 * a key the head lacks, every key the base lacks (a renamed server may be any of them: a rename
 * must not shed what the base entry held, such as protocolEra: both).
 */
function serverPairs(
  before: Record<string, ServerEntry>,
  after: Record<string, ServerEntry>,
): { label: string; was: ServerEntry; now: ServerEntry }[] {
  const added = Object.keys(after).filter((key) => !Object.hasOwn(before, key));
  return Object.entries(before).flatMap(([key, was]) => {
    const now = Object.hasOwn(after, key) ? after[key] : undefined;
    if (now) return [{ label: `server ${JSON.stringify(key)}`, was, now }];
    return added.map((to) => ({
      label: `server ${JSON.stringify(key)} (under the new key ${JSON.stringify(to)})`,
      was,
      now: after[to] as ServerEntry,
    }));
  });
}

/**
 * The relaxations of each server of the base config against its entry now (see serverPairs): an
 * era dropped, or any key not known to be safe (alwaysAllow, autoApprove, disabled, unknown
 * ones), named but never shown, since a server entry holds secrets.
 */
const serversRelaxed: Judge = (base, head) => {
  const out: string[] = [];
  for (const { label: server, was, now } of serverPairs(entriesOf(base), entriesOf(head))) {
    if (was.protocolEra !== undefined || now.protocolEra !== undefined)
      out.push(
        ...eraRelaxed(
          was.protocolEra ?? fileEra(base),
          now.protocolEra ?? fileEra(head),
          `${server}: protocolEra`,
        ),
      );
    const keys = new Set([...Object.keys(was), ...Object.keys(now)]);
    for (const name of [...keys].sort()) {
      if (START_KEYS.includes(name) || SAFE_SERVER_KEYS.includes(name) || name === 'protocolEra')
        continue;
      const [b, a] = [
        (was as Record<string, unknown>)[name],
        (now as Record<string, unknown>)[name],
      ];
      if (canonicalJson(b) !== canonicalJson(a))
        out.push(
          `${server}: ${name} is ${b === undefined ? 'added' : a === undefined ? 'removed' : 'changed'}`,
        );
    }
  }
  return out;
};

/** Top-level keys whose values are not secrets, so a message shows them, and what they change. */
const SHOWN_KEYS: Record<string, string> = {
  approveLabel: 'another label approves what the check fails',
  settings: 'the check judges other Claude Code settings files than the base',
  clientRules: 'the Claude Code rules each class may have differ from the base',
};

/** The differences told in plain words, with what they change. */
function told(diffs: Leaf[], note: string): string[] {
  if (!diffs.length) return [];
  return [
    `${diffs.map((d) => `${d.path} is ${shown(d.after)} (was ${shown(d.before)})`).join(', ')}: ${note}`,
  ];
}

/** Claude Code's decisions from the most permissive. */
const DECISION_RANK: Record<string, number> = { allow: 0, ask: 1, deny: 2 };

/**
 * Whether a change of one clientRules entry only asks more of the settings: a class's decision
 * (its default where unset) made stricter; a per-reach or per-tool one made stricter, added as
 * deny, or removed where it was allow (an unset one falls back to its class, which may be anything).
 */
function stricterRule({ path, before, after }: Leaf): boolean {
  const rank = (v: unknown) => (typeof v === 'string' ? DECISION_RANK[v] : undefined);
  const cls = /^clientRules\.(read|edit|delete)$/.exec(path)?.[1] as ToolClass | undefined;
  const fallback = cls ? DEFAULT_MAPPING.classes[cls] : undefined;
  const [b, a] = [rank(before ?? fallback), rank(after ?? fallback)];
  if (!cls && before === undefined) return a === DECISION_RANK.deny;
  if (!cls && after === undefined) return b === DECISION_RANK.allow;
  return a !== undefined && b !== undefined && a >= b;
}

const clientRulesRelaxed: Judge = (base, head) =>
  told(
    leaves(base?.clientRules, head?.clientRules, 'clientRules').filter((d) => !stricterRule(d)),
    SHOWN_KEYS.clientRules as string,
  );

/** A key the allow-list does not judge: any difference relaxes the check. */
function otherKeyRelaxed(key: string, before: unknown, after: unknown): string[] {
  const note = SHOWN_KEYS[key];
  if (note === undefined)
    return canonicalJson(before) === canonicalJson(after)
      ? []
      : [
          `${key} is ${before === undefined ? 'added' : after === undefined ? 'removed' : 'changed'}, and it is not a key that cannot weaken the check`,
        ];
  return told(leaves(before, after, key), note);
}

const SAFE: Judge = () => [];

/** How each top-level key of the config file is judged; any other key relaxes when it differs. */
const JUDGES: Record<string, Judge> = {
  rules: rulesRelaxed,
  failOn: failOnRelaxed,
  policies: policiesRelaxed,
  waivers: waiversRelaxed,
  clientRules: clientRulesRelaxed,
  clients: clientsRelaxed,
  protocolEra: (base, head) => eraRelaxed(fileEra(base), fileEra(head), 'protocolEra'),
  servers: serversRelaxed,
  // Judged with servers: the run takes both as one list.
  mcpServers: SAFE,
  classList: SAFE,
  startTimeout: SAFE,
  listTimeout: SAFE,
  maxPages: SAFE,
  maxTools: SAFE,
  concurrency: SAFE,
};

/** Every way `head` may weaken the check against `base`, in plain words. */
export function relaxationsOf(
  base: ConfigFile | undefined,
  head: ConfigFile | undefined,
): string[] {
  const out = Object.values(JUDGES).flatMap((judge) => judge(base, head));
  const [b, h] = [(base ?? {}) as Record<string, unknown>, (head ?? {}) as Record<string, unknown>];
  const others = new Set(
    [...Object.keys(b), ...Object.keys(h)].filter((k) => !Object.hasOwn(JUDGES, k)),
  );
  for (const key of [...others].sort()) out.push(...otherKeyRelaxed(key, b[key], h[key]));
  return out;
}

/**
 * Each way the PR's config file (`head`) may weaken the check against the base commit's (`base`):
 * every difference outside the few safe ones (see the list above). The PR's config is allowed to
 * do so, but never silently: each is one config-relaxed finding, at the severity the base's config
 * gives that rule (the config it is about cannot turn it down). Then, for each server whose start
 * configuration changed, a start-changed notice under that server's name, which the audit pairs
 * with the tools the server no longer lists (pairStartChanges).
 */
export function configRelaxations(
  base: ConfigFile | undefined,
  head: ConfigFile | undefined,
  where: { base: string; head: string },
): Finding[] {
  const relaxedSeverity = base?.rules?.['config-relaxed'] ?? highestSeverity('config-relaxed');
  const config = {
    ...where,
    relaxations: relaxedSeverity === 'off' ? [] : relaxationsOf(base, head),
    relaxedSeverity,
    starts: [...startChanges(base, head)].map(([server, changed]) => ({ server, changed })),
  };
  return runChecks('run', { config });
}

/** An environment as names and values, from either way a config writes it. */
function envEntries(env: ServerEntry['env']): Record<string, string | null> {
  if (!env) return {};
  if (!Array.isArray(env))
    return Object.fromEntries(
      Object.entries(env).map(([k, v]) => [k, v === null ? null : String(v)]),
    );
  return Object.fromEntries(
    env.map((entry) => {
      const eq = entry.indexOf('=');
      return eq < 0 ? [entry, null] : [entry.slice(0, eq), entry.slice(eq + 1)];
    }),
  );
}

/** The names of the entries of two maps that differ, as `${label} NAME`. */
function namesChanged(
  label: string,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): string[] {
  return [...new Set([...Object.keys(before), ...Object.keys(after)])]
    .filter((k) => canonicalJson(before[k]) !== canonicalJson(after[k]))
    .sort()
    .map((k) => `${label} ${k}`);
}

/** What differs in how a server (or an HTTP server's start command) is started, by key name. */
function startDifferences(
  was: Record<string, unknown>,
  now: Record<string, unknown>,
  prefix: string,
): string[] {
  const out: string[] = [];
  for (const key of START_KEYS) {
    const [b, a] = [was[key], now[key]];
    if (key === 'env')
      out.push(
        ...namesChanged(
          `${prefix}env`,
          envEntries(b as ServerEntry['env']),
          envEntries(a as ServerEntry['env']),
        ),
      );
    else if (key === 'headers')
      out.push(...namesChanged(`${prefix}header`, isObject(b) ? b : {}, isObject(a) ? a : {}));
    else if (key === 'start' && (isObject(b) || isObject(a)))
      out.push(...startDifferences(isObject(b) ? b : {}, isObject(a) ? a : {}, 'start '));
    else if (canonicalJson(b) !== canonicalJson(a)) out.push(`${prefix}${key}`);
  }
  return out;
}

/**
 * What a server under a key the base config lacks changed, when base servers are gone: it is
 * compared with the one gone, or changed outright when several are, since any may be its old self.
 */
function renamedFrom(
  gone: string[],
  before: Record<string, ServerEntry>,
  now: ServerEntry,
): string[] {
  const [only] = gone;
  if (only === undefined) return [];
  if (gone.length > 1)
    return [`a new key while ${gone.length} servers of the base config are gone`];
  const changed = startDifferences(before[only] as ServerEntry, now, '');
  return changed.length ? [`renamed from ${JSON.stringify(only)}`, ...changed] : [];
}

/**
 * The servers whose start configuration differs from the base config's (command, args, cwd, env,
 * url, headers, an HTTP server's start command), by the name the class list gives them, each with
 * what changed: key names only, since the values are secrets. A server under a new key is compared
 * with the one base server that is gone, when one is (the audit takes it as renamed), and is
 * changed when several are. A tool such a server no longer lists may still be served by the
 * command clients run: start-removed, not tool-removed.
 */
export function startChanges(
  base: ConfigFile | undefined,
  head: ConfigFile | undefined,
): Map<string, string[]> {
  const [before, after] = [entriesOf(base), entriesOf(head)];
  const gone = Object.keys(before).filter((key) => !Object.hasOwn(after, key));
  const out = new Map<string, string[]>();
  for (const [key, now] of Object.entries(after)) {
    const was = before[key];
    const changed =
      Object.hasOwn(before, key) && was
        ? startDifferences(was, now, '')
        : renamedFrom(gone, before, now);
    if (changed.length) out.set(normalizeServerName(key), changed);
  }
  return out;
}
