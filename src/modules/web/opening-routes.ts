import type { Environment } from '../../db/schema.ts';
import type { TypedApp } from '../../http/schemas.ts';
import type { webUserOf } from './users/web-session.ts';
import { OpeningEnvironment } from './web-schemas.ts';

/**
 * `GET {base}/api/opening`: the environment the pages show when the address names none (the
 * dashboard: the signed-in user's account's; the console: the platform's). Read by the shell once
 * after sign-in (ui/shell.ts).
 */
export function openingRoutes(
  app: TypedApp,
  opening: (request: Parameters<typeof webUserOf>[0]) => Promise<Environment>,
) {
  app.get(
    '/api/opening',
    {
      schema: {
        response: { 200: OpeningEnvironment },
        description: 'The environment the pages open on when the address names none',
      },
      config: { permission: 'read' },
    },
    async (request) => ({ environment: await opening(request) }),
  );
}
