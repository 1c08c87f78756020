// The commands of ours an output prints for a reader to paste: code spans, sh code blocks, and
// indented lines (test/unit/printed-commands.test.ts runs them all, test/e2e/newcomer.test.ts
// pastes some into a shell).

/** Every command of ours `output` prints for pasting, each once, in order. */
export function printedCommands(output: string): string[] {
  const found = new Set<string>();
  for (const m of output.matchAll(/`(npx [^`\n]+)`/g)) found.add(m[1] as string);
  for (const m of output.matchAll(/```sh\n(npx [^\n]+)\n```/g)) found.add(m[1] as string);
  for (const m of output.matchAll(/^ {2,}(npx mcp-annotation-auditor[^\n]*)$/gm))
    found.add(m[1] as string);
  return [...found];
}
