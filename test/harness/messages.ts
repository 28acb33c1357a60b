import { withMessagingTables } from '../../src/modules/messaging/index.ts';
import type { TestServer } from './server.ts';

/**
 * The messages (e-mails, texts) the in-process server recorded to `recipient`, oldest first; of
 * `kind` only where it is given: what a suite counts to know what was (or was not) sent to someone.
 *
 * @example
 * assert.equal((await messagesTo(server, 'a@example.com', 'web.password_reset')).length, 1);
 */
export function messagesTo(server: Pick<TestServer, 'db'>, recipient: string, kind?: string) {
  let query = withMessagingTables(server.db.kysely)
    .selectFrom('messages')
    .selectAll()
    .where('recipient', '=', recipient);
  if (kind) query = query.where('kind', '=', kind);
  return query.orderBy('id').execute();
}
