import Ajv from 'ajv';
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

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? exact : coercing;
  return ajv.compile(schema);
};
