// The sender mapping and ignore rules: the shape here, the meaning (an address or
// @domain, a field of the rules) in packages/db's checkSenderMapping / checkIgnoreRule.
import { Type } from 'typebox';
import { RequiredText, Timestamp } from './common.ts';

export const SenderMapping = Type.Object({
  id: Type.Integer(),
  sender: Type.String(),
  organisation: Type.String(),
  create_at: Timestamp,
  update_at: Timestamp,
});
export const SenderMappingBody = Type.Object({ sender: RequiredText(320), organisation: RequiredText(200) }, { additionalProperties: false });

const IgnoreRuleField = Type.Union([Type.Literal('sender'), Type.Literal('subject')]);

export const IgnoreRule = Type.Object({
  id: Type.Integer(),
  field: IgnoreRuleField,
  pattern: Type.String(),
  create_at: Timestamp,
  update_at: Timestamp,
});
export const IgnoreRuleBody = Type.Object({ field: IgnoreRuleField, pattern: RequiredText(200) }, { additionalProperties: false });
