// The sha256 hex digest the class list's hashes and pins are made of, and the canonical JSON they
// are taken of. A leaf: pure.
import crypto from 'node:crypto';

/** The one-shot form (Node 20.12+) skips a Hash object per tool; older Node builds one. */
export const sha256Hex: (text: string) => string =
  typeof (crypto as { hash?: unknown }).hash === 'function'
    ? (text) => crypto.hash('sha256', text, 'hex')
    : (text) => crypto.createHash('sha256').update(text).digest('hex');

/**
 * A stable JSON text: object keys sorted, so equal schemas hash equally. It runs once per tool, so
 * it builds one string and sorts only the key lists that are out of order.
 */
export function canonicalJson(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i ? ',' : '') + canonicalJson(value[i]);
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  for (let i = 1; i < keys.length; i++)
    if ((keys[i - 1] as string) > (keys[i] as string)) {
      // Code-unit order, the same as comparing the strings with < and >.
      keys.sort();
      break;
    }
  let out = '{';
  for (const key of keys) {
    const v = record[key];
    if (v === undefined) continue;
    out += `${out.length > 1 ? ',' : ''}${JSON.stringify(key)}:${canonicalJson(v)}`;
  }
  return `${out}}`;
}
