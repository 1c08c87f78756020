// The type check (tsc --noEmit) and ESLint (npm run lint's eslint) over one TypeScript program:
// npm test's way to run both. Each alone builds and checks the program tsconfig.json describes
// (eslint's type-aware rules need one too): on a fresh clone that was some 16 s of CPU for tsc and
// 35 s for eslint, and one program shared is some 28 s for both. Prints what each found, in
// each tool's own format, and exits 1 when either found anything (eslint: --max-warnings 0).
// Each keeps what it learnt in node_modules/.cache, as their npm scripts do, so a second run
// checks again only what changed.
import { ESLint } from 'eslint';
import ts from 'typescript';

const TS_BUILD_INFO = 'node_modules/.cache/tsc/tsbuildinfo';
const ESLINT_CACHE = 'node_modules/.cache/eslint/';

/** The program tsconfig.json describes, built incrementally (tsc --incremental's build info). */
function buildProgram() {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    'tsconfig.json',
    { incremental: true, tsBuildInfoFile: TS_BUILD_INFO },
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!parsed) throw new Error('tsconfig.json could not be read');
  const builder = ts.createIncrementalProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(parsed),
  });
  const diagnostics = [
    ...builder.getConfigFileParsingDiagnostics(),
    ...builder.getOptionsDiagnostics(),
    ...builder.getGlobalDiagnostics(),
    ...builder.getSyntacticDiagnostics(),
    ...builder.getSemanticDiagnostics(),
  ];
  // With noEmit, this writes the build info alone.
  builder.emit();
  return { program: builder.getProgram(), diagnostics };
}

const { program, diagnostics } = buildProgram();
const host = {
  getCanonicalFileName: (name) => name,
  getCurrentDirectory: ts.sys.getCurrentDirectory,
  getNewLine: () => ts.sys.newLine,
};
if (diagnostics.length) {
  process.stdout.write('── typecheck (tsc) ──\n');
  process.stdout.write(ts.formatDiagnosticsWithColorAndContext(diagnostics, host));
}

const eslint = new ESLint({
  cache: true,
  cacheLocation: ESLINT_CACHE,
  // The program above, in place of the one eslint.config.mjs would have eslint build; as the
  // cache's key for it (the config is part of it), the file that describes it.
  overrideConfig: [
    {
      files: ['**/*.ts'],
      languageOptions: {
        parserOptions: {
          project: null,
          programs: Object.assign([program], { toJSON: () => ['tsconfig.json'] }),
        },
      },
    },
  ],
});
const results = await eslint.lintFiles(['.']);
const problems = results.reduce((n, r) => n + r.errorCount + r.warningCount, 0);
if (problems) {
  process.stdout.write('── lint (eslint) ──\n');
  process.stdout.write((await eslint.loadFormatter('stylish')).format(results));
}
process.stdout.write(
  `typecheck: ${diagnostics.length} error${diagnostics.length === 1 ? '' : 's'}; eslint: ${problems} problem${problems === 1 ? '' : 's'}\n`,
);
process.exitCode = diagnostics.length || problems ? 1 : 0;
