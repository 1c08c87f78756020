// Writes the README's rules table from the rules' files (src/core/rules/), between the
// `<!-- rules:start -->` and `<!-- rules:end -->` markers, so the docs cannot drift from the code.
// `--write` rewrites README.md; without it (or with --check) exits 1 when README.md is out of date.
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

const current = readFileSync('README.md', 'utf8');
const from = current.indexOf(START);
const to = current.indexOf(END);
if (from < 0 || to < from) {
  console.error(`README.md lacks the ${START} ... ${END} markers.`);
  process.exit(1);
}
const next = `${current.slice(0, from + START.length)}\n\n${await rulesTable()}\n\n${current.slice(to)}`;
if (process.argv.includes('--write')) {
  if (next !== current) writeFileSync('README.md', next);
} else if (next !== current) {
  console.error(
    'The README rules table differs from src/core/rules/: run node scripts/rules-table.mjs --write and commit.',
  );
  process.exit(1);
}
