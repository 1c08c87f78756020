// Prints the longest functions and files in src/ and any function with too many parameters, so a
// contributor can keep to the limits of the layout (about 80 lines a function, about 500 a file,
// at most 5 parameters). Run: node scripts/sizes.mjs [--most N]. Exits 1 when a limit is passed.
// A report for people, not a test: the limits are "about", so the build does not depend on it.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const MAX_FUNCTION_LINES = 80;
const MAX_FILE_LINES = 500;
const MAX_PARAMETERS = 5;

const mostIndex = process.argv.indexOf('--most');
const most = mostIndex > 0 ? Number(process.argv[mostIndex + 1]) : 10;

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The name a reader would search for: the declaration's own, or the variable or property it is assigned to. */
function functionName(node, source) {
  if (node.name) return node.name.getText(source);
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)))
    return parent.name.getText(source);
  return '(anonymous)';
}

function measure(path) {
  const text = readFileSync(path, 'utf8');
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const functions = [];
  const visit = (node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const line = (pos) => source.getLineAndCharacterOfPosition(pos).line;
      functions.push({
        file: path,
        name: functionName(node, source),
        line: line(node.getStart(source)) + 1,
        lines: line(node.getEnd()) - line(node.getStart(source)) + 1,
        parameters: node.parameters.length,
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { file: path, lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0), functions };
}

const files = sourceFiles('src').map(measure);
const functions = files.flatMap((file) => file.functions);
const where = (item) => `${relative('.', item.file)}${item.line ? `:${item.line}` : ''}`;

console.log(`Longest functions (limit about ${MAX_FUNCTION_LINES} lines):`);
for (const fn of [...functions].sort((a, b) => b.lines - a.lines).slice(0, most))
  console.log(`  ${String(fn.lines).padStart(4)}  ${fn.name}  ${where(fn)}`);
console.log(`Longest files (limit about ${MAX_FILE_LINES} lines):`);
for (const file of [...files].sort((a, b) => b.lines - a.lines).slice(0, most))
  console.log(`  ${String(file.lines).padStart(4)}  ${where(file)}`);

const tooMany = functions.filter((fn) => fn.parameters > MAX_PARAMETERS);
console.log(`Functions with more than ${MAX_PARAMETERS} parameters: ${tooMany.length}`);
for (const fn of tooMany) console.log(`  ${fn.parameters}  ${fn.name}  ${where(fn)}`);

const over =
  functions.some((fn) => fn.lines > MAX_FUNCTION_LINES) ||
  files.some((file) => file.lines > MAX_FILE_LINES) ||
  tooMany.length > 0;
process.exitCode = over ? 1 : 0;
