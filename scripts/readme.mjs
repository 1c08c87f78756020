// Writes the README's inputs and outputs tables from action.yml, between marker comments, so the
// docs cannot drift from the action. With --check, exits 1 when the README is out of date.
import { readFileSync, writeFileSync } from 'node:fs';
import { parse } from 'yaml';

const action = parse(readFileSync('action.yml', 'utf8'));
const cell = (text) =>
  String(text ?? '')
    .replace(/\|/g, '\\|')
    .replace(/\n/g, ' ');

function inputsTable() {
  const rows = ['| Input | Default | Description |', '| --- | --- | --- |'];
  for (const [name, input] of Object.entries(action.inputs ?? {}))
    rows.push(
      `| \`${name}\` | ${input.default !== undefined ? `\`${cell(input.default)}\`` : ''} | ${cell(input.description)} |`,
    );
  return rows.join('\n');
}

function outputsTable() {
  const rows = ['| Output | Description |', '| --- | --- |'];
  for (const [name, output] of Object.entries(action.outputs ?? {}))
    rows.push(`| \`${name}\` | ${cell(output.description)} |`);
  return rows.join('\n');
}

export function renderReadme(readme) {
  let out = readme;
  for (const [name, table] of [
    ['inputs', inputsTable()],
    ['outputs', outputsTable()],
  ]) {
    const start = `<!-- ${name}:start -->`;
    const end = `<!-- ${name}:end -->`;
    const from = out.indexOf(start);
    const to = out.indexOf(end);
    if (from < 0 || to < from) throw new Error(`README.md lacks the ${start} ... ${end} markers`);
    out = `${out.slice(0, from + start.length)}\n\n${table}\n\n${out.slice(to)}`;
  }
  return out;
}

const current = readFileSync('README.md', 'utf8');
const next = renderReadme(current);
if (process.argv.includes('--check')) {
  if (next !== current) {
    console.error(
      'README.md tables differ from action.yml: run node scripts/readme.mjs and commit.',
    );
    process.exit(1);
  }
} else if (next !== current) writeFileSync('README.md', next);
