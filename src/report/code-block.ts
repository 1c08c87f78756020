// A fenced code block for markdown (the comment, the job summary, --format markdown): a leaf,
// so that every markdown renderer can use it without importing another.

/** A fenced code block whose fence is longer than any run of backticks in `text`. */
export function codeBlock(text: string, lang = ''): string[] {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [`${fence}${lang}`, text, fence];
}
