// The order every sorted list of names shares (tools, keys, servers). A leaf: imports nothing.

/** Code-unit order, as `<` compares strings and Array#sort does without a comparator. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
