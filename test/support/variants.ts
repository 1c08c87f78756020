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
  // An own `__proto__` key, as JSON.parse makes one, at the top and in each object field.
  out.push(withProto(base));
  for (const [key, inner] of Object.entries(base))
    if (inner && typeof inner === 'object' && !Array.isArray(inner))
      out.push({ ...base, [key]: withProto(inner as Record<string, unknown>) });
  // An absent field is not the same as one set to undefined: remove each for real too.
  for (const key of Object.keys(base)) {
    const rest = { ...base };
    delete rest[key];
    out.push(rest);
  }
  return out;
}

/** A copy of a JSON object with an own `__proto__` key added, as JSON.parse makes one. */
function withProto(object: Record<string, unknown>): Record<string, unknown> {
  const rest = JSON.stringify(object).slice(1);
  return JSON.parse(`{"__proto__":{"x":1}${rest === '}' ? '}' : `,${rest}`}`) as Record<
    string,
    unknown
  >;
}
