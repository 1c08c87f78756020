/*
 * The functions of jsonc-parser the auditor uses, imported by name so that the chunk of the bundle
 * holding them keeps only these. Loaded by jsontext.ts (loadJsonText), never imported statically.
 */
export {
  applyEdits,
  findNodeAtLocation,
  format,
  modify,
  parseTree,
  printParseErrorCode,
  stripComments,
} from 'jsonc-parser';
