// Writes the rules table (docs/rules.md) from the rules' files (src/core/rules/), between the
// `<!-- rules:start -->` and `<!-- rules:end -->` markers, so the docs cannot drift from the code.
// `--write` rewrites docs/rules.md; without it (or with --check) exits 1 when the page is out of date.
import { readFileSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

const START = '<!-- rules:start -->';
const END = '<!-- rules:end -->';

/** The table, from the registry bundled in memory (the sources are TypeScript). */
async function rulesTable() {
  const out = await build({
    entryPoints: ['src/report/rules-table.ts'],
    bundle: true,
    format: 'esm',
    platform: 'node',
    write: false,
    logLevel: 'warning',
  });
  const code = out.outputFiles[0].text;
  const module = await import(
    `data:text/javascript;base64,${Buffer.from(code).toString('base64')}`
  );
  return module.rulesTable();
}

const PAGE = 'docs/rules.md';
const current = readFileSync(PAGE, 'utf8');
const from = current.indexOf(START);
const to = current.indexOf(END);
if (from < 0 || to < from) {
  console.error(`${PAGE} lacks the ${START} ... ${END} markers.`);
  process.exit(1);
}
const next = `${current.slice(0, from + START.length)}\n\n${await rulesTable()}\n\n${current.slice(to)}`;
if (process.argv.includes('--write')) {
  if (next !== current) writeFileSync(PAGE, next);
} else if (next !== current) {
  console.error(
    'The rules table in docs/rules.md differs from src/core/rules/: run node scripts/rules-table.mjs --write and commit.',
  );
  process.exit(1);
}
