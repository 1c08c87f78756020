// Writes action.yml's inputs from the option table (src/config/options.ts), then the README's
// inputs and outputs tables from action.yml, between marker comments, so neither can drift from
// the code. With --check, exits 1 when either is out of date.
import { readFileSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';
import { parse, stringify } from 'yaml';

/** The option table's rows, from the source (bundled in memory: it is TypeScript). */
async function optionRows() {
  const out = await build({
    entryPoints: ['src/config/options.ts'],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    logLevel: 'error',
  });
  const code = Buffer.from(out.outputFiles[0].text).toString('base64');
  return (await import(`data:text/javascript;base64,${code}`)).ROWS;
}

/** A YAML scalar on one line, quoted only where YAML needs it. */
const scalar = (text) => stringify(text, { lineWidth: 0 }).trimEnd();

/** action.yml with its inputs block written from the rows that have an input. */
export function renderAction(text, rows) {
  const from = text.indexOf('\ninputs:\n');
  const to = text.indexOf('\noutputs:\n');
  if (from < 0 || to < from) throw new Error('action.yml lacks its inputs: and outputs: blocks');
  const inputs = rows
    .filter((row) => row.input)
    .map(({ input }) =>
      [
        `  ${input.name}:`,
        `    description: ${scalar(input.doc)}`,
        '    required: false',
        ...(input.default !== undefined ? [`    default: ${scalar(input.default)}`] : []),
      ].join('\n'),
    );
  return `${text.slice(0, from)}\ninputs:\n${inputs.join('\n')}\n${text.slice(to)}`;
}

const actionText = readFileSync('action.yml', 'utf8');
const nextAction = renderAction(actionText, await optionRows());
const action = parse(nextAction);
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
  if (nextAction !== actionText || next !== current) {
    console.error(
      `${nextAction !== actionText ? "action.yml's inputs differ from src/config/options.ts" : 'README.md tables differ from action.yml'}: run node scripts/readme.mjs and commit.`,
    );
    process.exit(1);
  }
} else {
  if (nextAction !== actionText) writeFileSync('action.yml', nextAction);
  if (next !== current) writeFileSync('README.md', next);
}
