import { describe, expect, it } from 'vitest';
import { layerProblems } from '../../scripts/layers.mjs';

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

  it("lets through only the rule registry's known knot of types, not a file more", () => {
    const knot: [string, string][] = [
      ['core/rules.ts', 'core/rules/tool-added.ts'],
      ['core/rules/tool-added.ts', 'core/findings.ts'],
      ['core/findings.ts', 'core/rules.ts'],
    ];
    expect(layerProblems(knot).cycles).toEqual([]);
    const wider = layerProblems([
      ...knot,
      ['core/findings.ts', 'core/text.ts'],
      ['core/text.ts', 'core/rules.ts'],
    ]);
    expect(wider.cycles.map((c) => c.files)).toEqual([
      ['core/findings.ts', 'core/rules.ts', 'core/rules/tool-added.ts', 'core/text.ts'],
    ]);
  });

  it('names a new top-level file no layer holds', () => {
    expect(layerProblems([['helpers.ts', 'errors.ts']]).unplaced).toEqual(['helpers.ts']);
  });
});
