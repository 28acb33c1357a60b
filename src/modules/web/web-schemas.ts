import { Type } from 'typebox';

/**
 * Schema pieces both pages' JSON APIs use. Like every `*-schemas.ts` of this module it imports only
 * typebox and other schema files, so the browser code can import its types (README.md).
 */
export const Environment = Type.Union([Type.Literal('live'), Type.Literal('sandbox')]);
export const EnvironmentQuery = Type.Object({ environment: Environment });

export const AccountIdParams = Type.Object({ accountId: Type.Integer({ minimum: 1 }) });

export const ClientParams = Type.Object({ clientId: Type.String({ minLength: 1, maxLength: 200 }) });
export const Revoked = Type.Object({ clientId: Type.String(), revoked: Type.Boolean() });
export const OpeningEnvironment = Type.Object({
  environment: Type.Union([Type.Literal('live'), Type.Literal('sandbox')], {
    description: 'live when it has data (credentials or transactions), else sandbox',
  }),
});
