// The README and docs/ pages as tests read them: the pages, their fenced blocks and marked
// sections, and our commands as a reader pastes them (test/e2e/docs.test.ts runs the few that
// need the built CLI or action, test/unit/docs-commands.test.ts runs every other in memory).
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { ROOT } from './cli.js';

export const readme = () => readFile(join(ROOT, 'README.md'), 'utf8');

async function docPages(): Promise<string[]> {
  return (await readdir(join(ROOT, 'docs'))).filter((f) => f.endsWith('.md')).sort();
}

/** README.md and every docs/ page, by path from the root. */
export async function allDocs(): Promise<[string, string][]> {
  const pages = ['README.md', ...(await docPages()).map((p) => `docs/${p}`)];
  return Promise.all(
    pages.map(async (p) => [p, await readFile(join(ROOT, p), 'utf8')] as [string, string]),
  );
}

/** The fenced blocks of a markdown text, with their language. */
export function blocks(text: string): { lang: string; body: string }[] {
  return [...text.matchAll(/^(`{3,})(\w*)\n([\s\S]*?)^\1$/gm)].map((m) => ({
    lang: m[2] as string,
    body: m[3] as string,
  }));
}

/** The commands of ours quoted in the text outside its fenced blocks, spaces collapsed. */
export function inlineCommands(text: string): string[] {
  return [
    ...text
      .replace(/^(`{3,})\w*\n[\s\S]*?^\1$/gm, '')
      .matchAll(/`(npx mcp-annotation-auditor[^`]*)`/g),
  ].map((m) => (m[1] as string).replace(/\s+/g, ' '));
}

/** The text between `<!-- name:start -->` and `<!-- name:end -->`. */
export function marked(text: string, name: string): string {
  const start = text.indexOf(`<!-- ${name}:start -->`);
  const end = text.indexOf(`<!-- ${name}:end -->`);
  if (start < 0 || end < start) throw new Error(`no ${name} markers`);
  return text.slice(start + `<!-- ${name}:start -->`.length, end).trim();
}

/** The one block between the markers, without its fences. */
export function markedBlock(text: string, name: string): string {
  const [block] = blocks(marked(text, name));
  if (!block) throw new Error(`no block in ${name}`);
  return block.body;
}

/** Server command lines the docs use for "your server": run as the example server instead. */
const YOUR_SERVER = ['uv run notes.py', 'node dist/server.js', 'node server.js'];

/**
 * The arguments of one of our commands as a person pastes it (a comment dropped, a placeholder
 * server run as the example, `node examples/notes/server.mjs` from the folder it is run in).
 */
export function printedArgs(command: string): string[] {
  let line = command.replace(/\s+#.*$/, '');
  for (const placeholder of YOUR_SERVER)
    line = line.replace(`-- ${placeholder}`, '-- node examples/notes/server.mjs');
  const words = line.split(/\s+/).filter(Boolean);
  expect(words.slice(0, 2).join(' '), command).toMatch(/^npx mcp-annotation-auditor(@|$)/);
  return words.slice(2);
}
