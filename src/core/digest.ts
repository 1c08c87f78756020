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
      sortKeys(keys);
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

/** Up to this many keys are sorted in place by insertion (more: by Array#sort). */
const INSERTION_SORT_MAX = 32;

/**
 * Sorts keys in code-unit order, as `<` compares strings and Array#sort does without a comparator.
 * A schema's object has a handful of keys: sorted in place, without the work array Array#sort
 * allocates for each (at 10,000 tools, most of what the canonical text allocated); a long list
 * (a listing may hold an object of any size) by Array#sort, never in quadratic time.
 */
function sortKeys(keys: string[]): void {
  if (keys.length > INSERTION_SORT_MAX) {
    keys.sort();
    return;
  }
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i] as string;
    let j = i - 1;
    for (; j >= 0 && (keys[j] as string) > key; j--) keys[j + 1] = keys[j] as string;
    keys[j + 1] = key;
  }
}
