import { classOf, type ClassifiedTool, type HintState } from './classify.js';
import { CLASS_RANK } from './diff.js';
import { HINT_DEFAULTS, HINT_NAMES, type HintName } from './tools.js';

// The names live in a leaf of their own (era-names.ts); said here too for the modules that compare.
export { ERA_SETTINGS, PROTOCOL_ERAS, type EraSetting, type ProtocolEra } from './era-names.js';

/** How much a client may do with a tool: its class first, then its reach (open over closed). */
export function riskOf(tool: Pick<ClassifiedTool, 'class' | 'reach'>): number {
  return CLASS_RANK[tool.class] * 2 + (tool.reach === 'open' ? 1 : 0);
}

/**
 * One hint as both eras declare it: the value where the two agree, else absent. A client of the
 * era that leaves it out assumes the default; where the eras declare different values, the record
 * cannot say either without being wrong for the other era's clients, so it says neither. Absent
 * means the default, the riskier value of every hint, so the record never says more than some
 * era's clients are told, and a change in one era alone (a hint dropped, destructiveHint turned
 * false for modern clients only) is a hint-dropped against the base.
 */
function agreed(legacy: HintState, modern: HintState, hint: HintName): HintState {
  return legacy.declared && modern.declared && legacy.value === modern.value
    ? legacy
    : { declared: false, effective: HINT_DEFAULTS[hint] };
}

/**
 * A tool both eras list, as one entry: the riskier version's title, schema and description (the
 * legacy one on a tie), with each hint as both eras declare it (see agreed), and the class and
 * reach those hints give. So a hint dropped or changed in one era alone is dropped in the class
 * list too (hint-dropped against the base), where picking one era's version would hide it.
 */
function mergeEras(legacy: ClassifiedTool, modern: ClassifiedTool): ClassifiedTool {
  const hints = Object.fromEntries(
    HINT_NAMES.map((h) => [h, agreed(legacy.hints[h], modern.hints[h], h)]),
  ) as Record<HintName, HintState>;
  const base = riskOf(modern) > riskOf(legacy) ? modern : legacy;
  return {
    ...base,
    hints,
    class: classOf(hints),
    reach: hints.openWorldHint.effective ? 'open' : 'closed',
  };
}

/** The riskiest of the tools under each name (two tools may share one name), the first on a tie. */
function riskiestByName(tools: ClassifiedTool[]): Map<string, ClassifiedTool> {
  const out = new Map<string, ClassifiedTool>();
  for (const tool of tools) {
    const held = out.get(tool.name);
    if (!held || riskOf(tool) > riskOf(held)) out.set(tool.name, tool);
  }
  return out;
}

/**
 * The tools of both eras, one version per name: a tool only one era lists as that era lists it,
 * one both list merged (see mergeEras), so that the class list never understates what some
 * client can call, nor records a hint that some client is not told.
 */
export function unionOfEras(legacy: ClassifiedTool[], modern: ClassifiedTool[]): ClassifiedTool[] {
  const [old, now] = [riskiestByName(legacy), riskiestByName(modern)];
  const merged = new Set<string>();
  const out: ClassifiedTool[] = [];
  for (const tool of legacy) {
    const other = now.get(tool.name);
    // Two tools of one name in one era stay two (a duplicate-tool error) unless both eras list it.
    if (!other) out.push(tool);
    else if (!merged.has(tool.name)) {
      merged.add(tool.name);
      out.push(mergeEras(old.get(tool.name) as ClassifiedTool, other));
    }
  }
  out.push(...modern.filter((t) => !old.has(t.name)));
  return out;
}
