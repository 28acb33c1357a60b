import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

/**
 * Two validators: query strings and path parameters are text on the wire, so their values are
 * coerced to the schema's types ("10" -> 10); bodies are JSON and are checked as sent, so a price
 * sent as the string "10" is an error, not silently a number. Defaults from the schemas are filled in.
 */
const common = { allErrors: true, useDefaults: true, removeAdditional: false, strict: false } as const;
const coercing = addFormats.default(new Ajv.default({ ...common, coerceTypes: 'array' }));
const exact = addFormats.default(new Ajv.default({ ...common, coerceTypes: false }));

/**
 * Whole numbers the database can hold: an integer without its own maximum gets
 * Number.MAX_SAFE_INTEGER, so `?page=9999999999999999999999` or an id of 1e22 is a 400 here and not
 * an overflow in PostgreSQL. Applied to a copy; the route's schema (and its OpenAPI) is unchanged.
 */
function boundIntegers(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(boundIntegers);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = boundIntegers(value);
  if (out.type === 'integer' && out.maximum === undefined && out.exclusiveMaximum === undefined) {
    out.maximum = Number.MAX_SAFE_INTEGER;
  }
  return out;
}

/**
 * Each route's validator is compiled the first time the route is called, not when the server starts:
 * compiling every schema of every route took about a third of a restart's CPU (and the memory of the
 * validators of routes nobody calls). Ajv's own function does the work; `schemaEnv` tells Fastify
 * to pass the parent object, so a coerced root value is written back as before.
 */
export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? exact : coercing;
  let compiled: ValidateFunction | undefined;
  const validate = (data: unknown, context?: Parameters<ValidateFunction>[1]) => {
    compiled ??= ajv.compile(boundIntegers(schema) as object);
    const valid = compiled(data, context);
    validate.errors = compiled.errors;
    return valid;
  };
  validate.errors = null as ValidateFunction['errors'];
  validate.schemaEnv = true;
  return validate;
};
