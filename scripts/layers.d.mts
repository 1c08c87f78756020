// Types of scripts/layers.mjs, for the tests that import it.
export interface Layer {
  name: string;
  /** A folder of src/: every file under it. */
  folder?: string;
  /** Or top-level files of src/. */
  files?: string[];
  /** The layers it may import, besides itself. */
  may: string[];
  why: string;
}
export const LAYERS: Layer[];
export function layerOf(path: string): Layer | undefined;
export function layerProblems(edges: [string, string][]): {
  unplaced: string[];
  upward: string[];
  cycles: { files: string[]; circle: string[] }[];
};
/** ESLint config blocks that fail an import of a layer the importing layer may not import. */
export function lintBlocks(): { files: string[]; rules: Record<string, unknown[]> }[];
