// Four eyes: the actions an admin holds for a second person's approval, and the requests waiting.
import { Type } from 'typebox';
import { RequiredText, Timestamp } from './common.ts';
import { PageQuery } from './lists.ts';

const Action = Type.Union([
  Type.Literal('resolve_credited'),
  Type.Literal('resolve_rejected'),
  Type.Literal('bulk_status'),
  Type.Literal('tat_rule'),
  Type.Literal('bank_password'),
]);

export const FourEyesSetting = Type.Object({
  action: Action,
  enabled: Type.Boolean(),
  /** For bulk_status: a change of more disputes than this waits. */
  threshold: Type.Integer({ minimum: 0, maximum: 1_000_000 }),
});
export const FourEyesBody = Type.Array(FourEyesSetting, { minItems: 1, maxItems: 5 });

export const ChangeRequest = Type.Object({
  id: Type.Integer(),
  action: Action,
  summary: Type.String(),
  matched_then: Type.Integer(),
  maker: Type.String(),
  made_at: Timestamp,
  status: Type.Union([Type.Literal('pending'), Type.Literal('approved'), Type.Literal('rejected')]),
  checker: Type.Union([Type.String(), Type.Null()]),
  decided_at: Type.Union([Timestamp, Type.Null()]),
  decision_note: Type.Union([Type.String(), Type.Null()]),
  result: Type.Union([Type.Object({ updated: Type.Integer(), changed_since: Type.Integer(), matched_now: Type.Integer() }), Type.Null()]),
});

/** A request with what it would change if approved now: the disputes it matches, the first of them as they are. */
export const ChangeRequestDetail = Type.Intersect([
  ChangeRequest,
  Type.Object({
    /** A dispute request's status change; null for an admin list's. */
    change: Type.Union([Type.Object({ status: Type.String(), outcome: Type.Union([Type.String(), Type.Null()]), note: Type.String() }), Type.Null()]),
    /** An admin list request's fields, as they are and as they would be (a password never shown). */
    fields: Type.Array(Type.Object({ field: Type.String(), now: Type.String(), would_be: Type.String() })),
    matched_now: Type.Integer(),
    changed_since: Type.Integer(),
    disputes: Type.Array(
      Type.Object({
        id: Type.Integer(),
        atm_id: Type.String(),
        txt_no: Type.String(),
        status: Type.String(),
        outcome: Type.Union([Type.String(), Type.Null()]),
        changed_since: Type.Boolean(),
      }),
    ),
  }),
]);

export const RequestQuery = Type.Object(
  { ...PageQuery, status: Type.Optional(Type.Union([Type.Literal('pending'), Type.Literal('approved'), Type.Literal('rejected')])) },
  { additionalProperties: false },
);
export const RequestParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) });
export const DecisionBody = Type.Object({ note: RequiredText(2000) }, { additionalProperties: false });

/** What a change held for approval answers (202): the request made. */
export const RequestMade = Type.Object({ request: ChangeRequest, detail: Type.String() });
