// A deliberately small JSON-schema validator for the OpenAPI 3.0 schemas in
// test/fixtures/github/openapi-subset.json. It covers exactly what those schemas use (plus a few
// neighbours that cost a line each), so the fake GitHub API needs no new dependency. Anything it
// does not understand is ignored, like an annotation, rather than failing closed: a keyword
// introduced by a newer description must not make every request look invalid.
//
// Error messages follow the wording of GitHub's own request validator (the text after
// "Invalid request.\n\n" in a 422), e.g. `For 'properties/body', 123 is not a string.` and
// `"body" wasn't supplied.`, so the fake can answer with them verbatim.

export type JsonSchema = boolean | { readonly [keyword: string]: unknown };

export interface SchemaError {
  /** JSON pointer into the validated value, '' for the value itself. */
  instancePath: string;
  /** Path of keywords through the schema to the failing subschema, e.g. `properties/body`. */
  schemaPath: string;
  keyword: string;
  message: string;
  /** The offending value (for `required`/`additionalProperties`: the property name). */
  value: unknown;
}

export interface ValidateOptions {
  /** Document that `#/...` references are resolved against; defaults to the schema itself. */
  root?: unknown;
  /** Check `format` for date-time and uri (other formats are annotations). Default true. */
  formats?: boolean;
  /**
   * How messages name the value itself. GitHub says `links/0/schema` there, because its
   * validator walks a hyper-schema whose first link carries the request schema.
   */
  rootLabel?: string;
}

type SchemaObject = { readonly [keyword: string]: unknown };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function resolveRef(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) throw new Error(`only local $ref is supported: ${ref}`);
  let node: unknown = root;
  const pointer = ref.slice(1);
  if (pointer === '') return node;
  for (const raw of pointer.slice(1).split('/')) {
    const part = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    if (Array.isArray(node)) node = node[Number(part)];
    else if (isObject(node) && Object.hasOwn(node, part)) node = node[part];
    else throw new Error(`unresolvable $ref: ${ref}`);
  }
  return node;
}

/** Follows `$ref` chains; OpenAPI 3.0 ignores keywords beside a `$ref`, and so does this. */
export function deref<T = unknown>(root: unknown, node: unknown): T {
  let current = node;
  for (let hops = 0; isObject(current) && typeof current['$ref'] === 'string'; hops++) {
    if (hops > 32) throw new Error('$ref cycle');
    current = resolveRef(root, current['$ref']);
  }
  return current as T;
}

/** Ruby-style rendering, because GitHub's validator messages print values the Ruby way. */
export function inspectValue(value: unknown): string {
  if (value === null || value === undefined) return 'nil';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function matchesType(value: unknown, type: string): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isObject(value);
    default:
      return true;
  }
}

function article(type: string): string {
  if (type === 'null') return 'null';
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

// RFC 3339 date-time, which is what OpenAPI's `date-time` format means.
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

function checkFormat(format: string, value: string): boolean {
  if (format === 'date-time') return DATE_TIME.test(value) && !Number.isNaN(Date.parse(value));
  if (format === 'uri') return URL.canParse(value);
  return true;
}

function pointerEscape(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1');
}

function joinPath(base: string, ...segments: string[]): string {
  return [base, ...segments].filter((s) => s !== '').join('/');
}

interface Context {
  root: unknown;
  formats: boolean;
  rootLabel: string;
}

function validateAt(
  schema: unknown,
  value: unknown,
  instancePath: string,
  schemaPath: string,
  ctx: Context,
  errors: SchemaError[],
): void {
  if (schema === true || schema === undefined) return;
  const where = schemaPath || ctx.rootLabel;
  if (schema === false) {
    errors.push({
      instancePath,
      schemaPath,
      keyword: 'false',
      message: `For '${where}', ${inspectValue(value)} is not allowed.`,
      value,
    });
    return;
  }
  if (!isObject(schema)) return;
  if (typeof schema['$ref'] === 'string') {
    validateAt(deref(ctx.root, schema), value, instancePath, schemaPath, ctx, errors);
    return;
  }
  const s: SchemaObject = schema;
  const fail = (keyword: string, message: string, offending: unknown = value): void => {
    errors.push({ instancePath, schemaPath, keyword, message, value: offending });
  };

  // OpenAPI 3.0's `nullable` widens `type` to admit null; once null is admitted nothing else
  // about the value can be checked.
  if (value === null && s['nullable'] === true) return;

  if (s['type'] !== undefined) {
    const types = (Array.isArray(s['type']) ? s['type'] : [s['type']]).filter(
      (t): t is string => typeof t === 'string',
    );
    if (s['nullable'] === true && !types.includes('null')) types.push('null');
    if (types.length > 0 && !types.some((t) => matchesType(value, t))) {
      fail(
        'type',
        `For '${where}', ${inspectValue(value)} is not ${types.map(article).join(' or ')}.`,
      );
      return;
    }
  }

  if (Array.isArray(s['enum']) && !s['enum'].some((allowed) => deepEqual(allowed, value))) {
    const list = s['enum'].map(inspectValue).join(', ');
    fail('enum', `For '${where}', ${inspectValue(value)} is not a member of [${list}].`);
  }

  if (typeof value === 'string') {
    const length = [...value].length;
    if (typeof s['maxLength'] === 'number' && length > s['maxLength']) {
      fail(
        'maxLength',
        `For '${where}', ${inspectValue(value)} is longer than ${s['maxLength']} characters.`,
      );
    }
    if (typeof s['minLength'] === 'number' && length < s['minLength']) {
      fail(
        'minLength',
        `For '${where}', ${inspectValue(value)} is shorter than ${s['minLength']} characters.`,
      );
    }
    if (typeof s['pattern'] === 'string' && !new RegExp(s['pattern'], 'u').test(value)) {
      fail('pattern', `For '${where}', ${inspectValue(value)} does not match ${s['pattern']}.`);
    }
    if (ctx.formats && typeof s['format'] === 'string' && !checkFormat(s['format'], value)) {
      fail('format', `For '${where}', ${inspectValue(value)} is not a valid ${s['format']}.`);
    }
  }

  if (typeof value === 'number') {
    if (typeof s['minimum'] === 'number') {
      const exclusive = s['exclusiveMinimum'] === true;
      if (exclusive ? value <= s['minimum'] : value < s['minimum']) {
        const relation = exclusive ? 'greater than' : 'greater than or equal to';
        fail('minimum', `For '${where}', ${value} must be ${relation} ${s['minimum']}.`);
      }
    }
    if (typeof s['maximum'] === 'number') {
      const exclusive = s['exclusiveMaximum'] === true;
      if (exclusive ? value >= s['maximum'] : value > s['maximum']) {
        const relation = exclusive ? 'less than' : 'less than or equal to';
        fail('maximum', `For '${where}', ${value} must be ${relation} ${s['maximum']}.`);
      }
    }
  }

  if (Array.isArray(value)) {
    if (s['items'] !== undefined) {
      value.forEach((item, index) => {
        validateAt(
          s['items'],
          item,
          `${instancePath}/${index}`,
          joinPath(schemaPath, 'items'),
          ctx,
          errors,
        );
      });
    }
    if (typeof s['minItems'] === 'number' && value.length < s['minItems']) {
      fail('minItems', `For '${where}', ${inspectValue(value)} has too few items.`);
    }
    if (typeof s['maxItems'] === 'number' && value.length > s['maxItems']) {
      fail('maxItems', `For '${where}', ${inspectValue(value)} has too many items.`);
    }
  }

  if (isObject(value)) {
    const properties = isObject(s['properties']) ? s['properties'] : {};
    if (Array.isArray(s['required'])) {
      for (const name of s['required']) {
        if (typeof name === 'string' && !Object.hasOwn(value, name)) {
          fail('required', `"${name}" wasn't supplied.`, name);
        }
      }
    }
    for (const [name, child] of Object.entries(value)) {
      if (Object.hasOwn(properties, name)) {
        validateAt(
          properties[name],
          child,
          `${instancePath}/${pointerEscape(name)}`,
          joinPath(schemaPath, 'properties', name),
          ctx,
          errors,
        );
      } else if (s['additionalProperties'] === false) {
        fail('additionalProperties', `"${name}" is not a permitted key.`, name);
      } else if (isObject(s['additionalProperties'])) {
        validateAt(
          s['additionalProperties'],
          child,
          `${instancePath}/${pointerEscape(name)}`,
          joinPath(schemaPath, 'additionalProperties'),
          ctx,
          errors,
        );
      }
    }
  }

  if (Array.isArray(s['allOf'])) {
    s['allOf'].forEach((sub, index) => {
      validateAt(
        sub,
        value,
        instancePath,
        joinPath(schemaPath, 'allOf', String(index)),
        ctx,
        errors,
      );
    });
  }
  if (Array.isArray(s['anyOf'])) {
    const passing = s['anyOf'].filter(
      (sub) => validate(sub as JsonSchema, value, ctx).length === 0,
    );
    if (passing.length === 0) {
      fail(
        'anyOf',
        `For '${where}', ${inspectValue(value)} is not valid under any of the schemas.`,
      );
    }
  }
  if (Array.isArray(s['oneOf'])) {
    const passing = s['oneOf'].filter(
      (sub) => validate(sub as JsonSchema, value, ctx).length === 0,
    );
    if (passing.length !== 1) {
      const why = passing.length === 0 ? 'any' : 'exactly one';
      fail(
        'oneOf',
        `For '${where}', ${inspectValue(value)} is not valid under ${why} of the schemas.`,
      );
    }
  }
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, index) => deepEqual(item, b[index]));
  }
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length &&
      keys.every((key) => Object.hasOwn(b, key) && deepEqual(a[key], b[key]))
    );
  }
  return false;
}

/** Returns every violation found (empty when valid). */
export function validate(
  schema: JsonSchema,
  value: unknown,
  options: ValidateOptions = {},
): SchemaError[] {
  const errors: SchemaError[] = [];
  const ctx: Context = {
    root: options.root ?? schema,
    formats: options.formats ?? true,
    rootLabel: options.rootLabel ?? '',
  };
  validateAt(schema, value, '', '', ctx, errors);
  return errors;
}
