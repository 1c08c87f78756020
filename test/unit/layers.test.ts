import { ESLint } from 'eslint';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { layerProblems } from '../../scripts/layers.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('the layer check (scripts/layers.mjs)', () => {
  it('names an import that runs up a layer, a type import as much as a value', () => {
    const { upward, cycles, unplaced } = layerProblems([
      ['core/waivers.ts', 'config/settings.ts'],
      ['config/settings.ts', 'core/rules.ts'],
      ['server/stdio.ts', 'errors.ts'],
    ]);
    expect(upward).toEqual(['core/waivers.ts -> config/settings.ts (core may not import config)']);
    expect(cycles).toEqual([]);
    expect(unplaced).toEqual([]);
  });

  it('finds each circle once, with the files in import order', () => {
    const { cycles, upward } = layerProblems([
      ['config/file.ts', 'config/settings.ts'],
      ['config/settings.ts', 'config/inputs.ts'],
      ['config/inputs.ts', 'config/file.ts'],
      ['config/settings.ts', 'config/file.ts'],
      ['core/a.ts', 'core/b.ts'],
    ]);
    expect(upward).toEqual([]);
    expect(cycles).toEqual([
      {
        files: ['config/file.ts', 'config/inputs.ts', 'config/settings.ts'],
        circle: ['config/file.ts', 'config/settings.ts', 'config/file.ts'],
      },
    ]);
  });

  it("lets no cycle through, not even the rule registry's old knot of types", () => {
    // The registry reads RuleId off the rule files; were a rule file's types to name Finding
    // from core/findings.ts (which reads the registry), the three would import each other round.
    const { cycles } = layerProblems([
      ['core/rules.ts', 'core/rules/tool-added.ts'],
      ['core/rules/tool-added.ts', 'core/findings.ts'],
      ['core/findings.ts', 'core/rules.ts'],
    ]);
    expect(cycles).toEqual([
      {
        files: ['core/findings.ts', 'core/rules.ts', 'core/rules/tool-added.ts'],
        circle: [
          'core/findings.ts',
          'core/rules.ts',
          'core/rules/tool-added.ts',
          'core/findings.ts',
        ],
      },
    ]);
  });

  it('names a new top-level file no layer holds', () => {
    expect(layerProblems([['helpers.ts', 'errors.ts']]).unplaced).toEqual(['helpers.ts']);
  });
});

describe('npm run lint and the layers', () => {
  // The repository's own eslint.config.mjs, without type information: a probe file exists
  // only as text, and the layer rules read nothing but import paths.
  const eslint = new ESLint({
    cwd: ROOT,
    overrideConfig: { ...tseslint.configs.disableTypeChecked, files: ['**/*.ts'] },
  });
  const lint = async (path: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath: join(ROOT, path) });
    return (result?.messages ?? []).map((m) => `${m.ruleId}: ${m.message}`);
  };

  it('fails a new import that runs up a layer, naming both layers', async () => {
    expect(
      await lint(
        'src/core/probe.ts',
        "import type { Settings } from '../config/settings.js';\nexport type Probe = Settings;\n",
      ),
    ).toEqual([
      "no-restricted-imports: '../config/settings.js' import is restricted from being used by a pattern. core/ may not import config/: core may import shared (scripts/layers.mjs). Move what both need down a layer, or the caller up.",
    ]);
  });

  it('fails a dynamic import up a layer from a subfolder, and cli/ importing action/', async () => {
    expect(
      await lint(
        'src/clients/claude-code/probe.ts',
        "export const probe = () => import('../../report/report.js');\n",
      ),
    ).toEqual([
      'no-restricted-syntax: clients/ may not import report/: clients may import core, shared (scripts/layers.mjs). Move what both need down a layer, or the caller up.',
    ]);
    expect(
      await lint('src/cli/probe.ts', "export { run } from '../action/main.js';\n"),
    ).toHaveLength(1);
  });

  it('lets an import down a layer through', async () => {
    expect(
      await lint(
        'src/config/probe.ts',
        "export { RULES } from '../core/rules.js';\nexport { serverFor } from '../server/early.js';\n",
      ),
    ).toEqual([]);
  });
});
