import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type Db, fromPGlite } from '../../src/db/database.ts';
import { messagesRepository } from '../../src/modules/messaging/messages-repository.ts';
import { loadPgliteTemplate } from '../harness/templates.ts';

// The outbox records the outcomes of attempts made at the same moment in one statement
// (messages-repository.ts `recordMany`): each still under the same condition as alone (the message
// still queued, at the attempts its attempt read), each caller told whether its own was written.
let db: Db;
before(async () => {
  db = fromPGlite(await loadPgliteTemplate(), { guard: false });
});
after(() => db?.close());

test('outcomes recorded together: each written only if still as read, each told its own answer', async () => {
  const repository = messagesRepository(db.kysely);
  const at = new Date('2026-11-26T10:00:00Z');
  const [a, b, c, d] = await repository.insert(
    ['a', 'b', 'c', 'd'].map((name) => ({
      kind: 'test',
      channel: 'email' as const,
      recipient: `${name}@example.com`,
    })),
    at,
  );
  const later = new Date('2026-11-26T10:00:05Z');
  const retryAt = new Date('2026-11-26T10:01:00Z');
  const answers = await Promise.all([
    repository.record(a, { status: 'sent', nextAttemptAt: null, error: null, providerId: 'p-a', at: later }),
    repository.record(b, {
      status: 'queued',
      nextAttemptAt: retryAt,
      error: '451 try later',
      providerId: null,
      at: later,
    }),
    // read at an attempt count the message no longer has: another run recorded it first
    repository.record(
      { ...c, attempts: c.attempts + 1 },
      {
        status: 'sent',
        nextAttemptAt: null,
        error: null,
        providerId: 'p-c',
        at: later,
      },
    ),
    repository.record(d, {
      status: 'unsent',
      nextAttemptAt: null,
      error: 'not sent',
      providerId: null,
      at: later,
    }),
  ]);
  assert.deepEqual(answers, [true, true, false, true]);
  const rows = new Map(
    (await Promise.all([a, b, c, d].map((m) => repository.find(m.id)))).map((r) => [r?.recipient, r]),
  );
  assert.deepEqual(
    [...rows.values()].map((r) => [r?.status, r?.attempts, r?.provider_id, r?.last_error]),
    [
      ['sent', 1, 'p-a', null],
      ['queued', 1, null, '451 try later'],
      ['queued', 0, null, null],
      ['unsent', 1, null, 'not sent'],
    ],
  );
  assert.equal(rows.get('a@example.com')?.sent_at?.toISOString(), later.toISOString());
  assert.equal(rows.get('b@example.com')?.next_attempt_at?.toISOString(), retryAt.toISOString());
  assert.equal(rows.get('b@example.com')?.sent_at, null);
  // a message recorded twice at once (two runs): written once
  const [e] = await repository.insert([{ kind: 'test', channel: 'email', recipient: 'e@example.com' }], at);
  const twice = await Promise.all([
    repository.record(e, { status: 'sent', nextAttemptAt: null, error: null, providerId: 'p-1', at: later }),
    repository.record(e, { status: 'sent', nextAttemptAt: null, error: null, providerId: 'p-2', at: later }),
  ]);
  assert.equal((await repository.find(e.id))?.attempts, 1);
  assert.deepEqual(twice.sort(), [false, true]);
});
