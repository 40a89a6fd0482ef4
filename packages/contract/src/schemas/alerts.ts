// Alerts (admins): the rules that warn before a dispute's clock runs out, and the deliveries made.
import { Type } from 'typebox';
import { Timestamp } from './common.ts';
import { PageQuery } from './lists.ts';

const ClockKey = Type.String({ minLength: 1, maxLength: 60, pattern: '^[a-z0-9_.]+$' });

export const AlertRuleBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    clocks: Type.Optional(Type.Array(ClockKey, { maxItems: 50 })),
    days_before: Type.Integer({ minimum: 0, maximum: 60 }),
    to_owner: Type.Optional(Type.Boolean()),
    to_addresses: Type.Optional(Type.Array(Type.String({ maxLength: 320 }), { maxItems: 50 })),
    channel: Type.Union([Type.Literal('email'), Type.Literal('webhook')]),
    webhook_url: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
    /** Write-only: the HMAC-SHA256 key; left out on a change, the stored one stays. */
    webhook_secret: Type.Optional(Type.String({ maxLength: 200 })),
    hours_from: Type.Optional(Type.Integer({ minimum: 0, maximum: 23 })),
    hours_to: Type.Optional(Type.Integer({ minimum: 1, maximum: 24 })),
    weekdays: Type.Optional(Type.Array(Type.Integer({ minimum: 1, maximum: 7 }), { minItems: 1, maxItems: 7 })),
    time_zone: Type.Optional(Type.String({ maxLength: 64 })),
    active: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const AlertRule = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  clocks: Type.Array(Type.String()),
  days_before: Type.Integer(),
  to_owner: Type.Boolean(),
  to_addresses: Type.Array(Type.String()),
  channel: Type.Union([Type.Literal('email'), Type.Literal('webhook')]),
  webhook_url: Type.Union([Type.String(), Type.Null()]),
  has_webhook_secret: Type.Boolean(),
  hours_from: Type.Integer(),
  hours_to: Type.Integer(),
  weekdays: Type.Array(Type.Integer()),
  time_zone: Type.String(),
  active: Type.Boolean(),
});

export const DeliveryQuery = Type.Object(
  { ...PageQuery, status: Type.Optional(Type.Union([Type.Literal('pending'), Type.Literal('sending'), Type.Literal('sent'), Type.Literal('failed')])) },
  { additionalProperties: false },
);

export const AlertDelivery = Type.Object({
  id: Type.Integer(),
  kind: Type.Union([Type.Literal('warning'), Type.Literal('digest')]),
  rule_name: Type.Union([Type.String(), Type.Null()]),
  dispute_id: Type.Union([Type.Integer(), Type.Null()]),
  atm_id: Type.Union([Type.String(), Type.Null()]),
  txt_no: Type.Union([Type.String(), Type.Null()]),
  clock_name: Type.String(),
  due_on: Type.String(),
  channel: Type.Union([Type.Literal('email'), Type.Literal('webhook')]),
  recipient: Type.String(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('sending'), Type.Literal('sent'), Type.Literal('failed')]),
  attempts: Type.Integer(),
  last_answer: Type.String(),
  next_attempt_at: Timestamp,
  sent_at: Type.Union([Timestamp, Type.Null()]),
  create_at: Timestamp,
});
