import type { ApiDocs } from '../../http/openapi.ts';

/** What the token service's OpenAPI document says about its one operation (`http/openapi.ts`). */
export const TOKEN_API_DOCS: ApiDocs = {
  title: 'airgift token service',
  description:
    'OAuth 2.0 client credentials (RFC 6749 §4.4). The `audience` names the one product base the token is for.',
  tags: [{ name: 'Tokens', description: 'Access tokens for the product bases.' }],
  operations: {
    'POST /oauth/token': {
      tag: 'Tokens',
      summary: 'Get an access token',
      description:
        'Send `client_id`, `client_secret`, `grant_type=client_credentials` and `audience` (a product base URL, such as the ' +
        'gift card sandbox base) as JSON or as a form. The token works on that base only, carries the scopes of that product ' +
        'the credential has, and lasts `expires_in` seconds. A credential of one environment gets no token for the other. ' +
        'Tokens issued are limited per client_id; refused requests per address (a right secret is always served within ' +
        "its client's limit). Each field once: a field sent twice is refused.",
    },
  },
};
