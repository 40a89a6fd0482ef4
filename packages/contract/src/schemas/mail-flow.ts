import { Type } from 'typebox';
import { Timestamp } from './common.ts';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

export const Stall = Type.Object({ stalled: Type.Boolean(), reasons: Type.Array(Type.String()), stall_after_seconds: Type.Integer() });

export const MailFlow = Type.Object({
  mailboxes: Type.Array(
    Type.Object({
      source: Type.String(),
      state: Type.String(),
      last_error: Nullable(Type.String()),
      last_sync_at: Nullable(Timestamp),
      update_at: Timestamp,
      uid_validity: Nullable(Type.Number()),
      last_uid: Nullable(Type.Number()),
      checkpoint_at: Nullable(Timestamp),
      /** The worker watching it now (`host:pid:xxxx`), when one holds its lease. */
      worker: Nullable(Type.String()),
      waiting: Type.Integer(),
      processed_last_hour: Type.Integer(),
      processed_last_day: Type.Integer(),
    }),
  ),
  queue: Type.Object({
    waiting: Type.Integer(),
    oldest_waiting_at: Nullable(Timestamp),
    processed_last_hour: Type.Integer(),
    processed_last_day: Type.Integer(),
  }),
  failures: Type.Array(
    Type.Object({
      email_id: Type.Integer(),
      email_from: Type.String(),
      subject: Type.String(),
      reason: Type.String(),
      at: Timestamp,
      source: Nullable(Type.String()),
    }),
  ),
  stalled: Stall,
});

export const Reprocessed = Type.Object({
  id: Type.Integer(),
  /** False when no ingester runs in the API process: the email waits on the queue for one. */
  processed: Type.Boolean(),
  category: Type.String(),
  processing_error: Nullable(Type.String()),
  detail: Type.String(),
});
