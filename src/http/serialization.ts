import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';

/**
 * Response serializers compiled the first time a route answers with that status, not when the server
 * starts: building every route's fast-json-stringify function took ~15% of a restart's CPU. The
 * compiler is Fastify's own default (the copy of @fastify/fast-json-stringify-compiler Fastify
 * depends on), so the output is byte for byte what it was.
 *
 * @example
 * Fastify({ schemaController: { compilersFactory: { buildSerializer: lazySerializerFactory } } });
 */
type SerializerFactory = NonNullable<
  NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']
>['buildSerializer'] &
  object;
type Serializer = (data: unknown) => string;

const fromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'));
const { SerializerSelector } = fromFastify('@fastify/fast-json-stringify-compiler') as {
  SerializerSelector: () => SerializerFactory;
};
const eagerFactory = SerializerSelector();

export const lazySerializerFactory: SerializerFactory = (externalSchemas, options) => {
  const compile = eagerFactory(externalSchemas, options);
  return (route) => {
    let compiled: Serializer | undefined;
    return (data) => {
      compiled ??= compile(route);
      return compiled(data);
    };
  };
};
