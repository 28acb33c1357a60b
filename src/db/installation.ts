import { createHmac } from 'node:crypto';
import { sql } from 'kysely';
import { StartError } from '../start-error.ts';
import type { Db } from './database.ts';

/**
 * Facts about the installation a start needs before it builds anything: whether the database holds
 * data a key protects yet (a new installation may have its keys generated), and whether each key is
 * the one that data was protected with (`key_checks`, migration 0018).
 *
 * @example
 * const fresh = !(await holdsData(db));
 * await checkKey(db, { name: 'card codes', key, fresh, where: 'DATA_DIR/card-codes.key or CARD_CODES_KEY' });
 */

/** True once anything exists that a key protects: accounts (tokens), stock codes, upstreams, web users. */
export async function holdsData(db: Db): Promise<boolean> {
  const { rows } = await sql<{ holds: boolean }>`
    SELECT EXISTS (SELECT 1 FROM accounts) OR EXISTS (SELECT 1 FROM giftcard_stock)
        OR EXISTS (SELECT 1 FROM upstreams) OR EXISTS (SELECT 1 FROM web_users) AS holds`.execute(db.kysely);
  return rows[0]?.holds === true;
}

/**
 * Compares a key with the one recorded for `name` (an HMAC under the key, never the key): a new
 * installation records it; an installation with data refuses a different key with a StartError.
 */
export async function checkKey(
  db: Db,
  k: { name: string; key: string | Buffer; fresh: boolean; where: string },
): Promise<void> {
  const value = createHmac('sha256', k.key).update('airgift key check 1').digest('base64url');
  const known = await db.kysely
    .selectFrom('key_checks')
    .select('check_value')
    .where('name', '=', k.name)
    .executeTakeFirst();
  if (known?.check_value === value) return;
  if (known && !k.fresh) {
    throw new StartError(
      `the ${k.name} key (${k.where}) is not the one this database's data was protected with: ` +
        'put back the key of this installation (from its backup, or the other servers of the deployment).',
    );
  }
  await db.kysely
    .insertInto('key_checks')
    .values({ name: k.name, check_value: value })
    .onConflict((oc) => oc.column('name').doUpdateSet({ check_value: value, created_at: new Date() }))
    .execute();
}
