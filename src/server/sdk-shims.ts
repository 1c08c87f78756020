/**
 * Stands in for `@modelcontextprotocol/client/_shims` in our bundles (see scripts/build.mjs).
 *
 * The SDK's Node shims export Ajv as the default JSON Schema validator, which the client needs
 * only to check the results of tool calls. The auditor never calls a tool, and Ajv is a seventh
 * of what the CLI would load at every start, while the server under audit boots on the same
 * CPUs. `listTools` passes `noJsonSchemaValidation` explicitly as well.
 */
import type { jsonSchemaValidator, JsonSchemaValidatorResult } from '@modelcontextprotocol/client';

/** As in the SDK's Node shims: a fetch TypeError in Node is never a CORS refusal. */
export const CORS_IS_POSSIBLE = false;

/** A validator that refuses everything, saying why; the auditor never has anything to validate. */
export class DefaultJsonSchemaValidator implements jsonSchemaValidator {
  getValidator<T>(): (input: unknown) => JsonSchemaValidatorResult<T> {
    return () => ({
      valid: false,
      data: undefined,
      errorMessage:
        'mcp-annotation-auditor does not validate tool results (it never calls a tool).',
    });
  }
}

export const noJsonSchemaValidation = new DefaultJsonSchemaValidator();
