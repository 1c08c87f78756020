/** Values a field can wrongly (or rightly) hold in JSON. */
const VALUES: unknown[] = [undefined, null, 0, 1, '', 'x', 'absent', true, false, [], {}, ['x']];

/**
 * Every variant of `base` with one field (at the top level or one level down) replaced by each of
 * VALUES or removed, plus an unknown field added at each level: the shapes a fast check and a
 * schema must agree on.
 */
export function variants(base: Record<string, unknown>): unknown[] {
  const out: unknown[] = [base, null, [], 'tool', 42, { ...base, extra: 1 }];
  for (const key of Object.keys(base)) {
    for (const value of VALUES) out.push({ ...base, [key]: value });
    const inner = base[key];
    if (inner && typeof inner === 'object' && !Array.isArray(inner)) {
      const object = inner as Record<string, unknown>;
      out.push({ ...base, [key]: { ...object, extra: 1 } });
      for (const innerKey of Object.keys(object))
        for (const value of VALUES) out.push({ ...base, [key]: { ...object, [innerKey]: value } });
    }
  }
  // An absent field is not the same as one set to undefined: remove each for real too.
  for (const key of Object.keys(base)) {
    const rest = { ...base };
    delete rest[key];
    out.push(rest);
  }
  return out;
}
