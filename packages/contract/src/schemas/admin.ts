import { Type } from 'typebox';
import { RequiredText, Timestamp } from './common.ts';

export const BankPassword = Type.Object({
  id: Type.Integer(),
  bank_name: Type.String(),
  bank_pass: Type.String(),
  create_at: Timestamp,
  update_at: Timestamp,
});
export const CreateBankPasswordBody = Type.Object(
  { bank_name: RequiredText(200), bank_pass: Type.String({ minLength: 1, maxLength: 256 }) },
  { additionalProperties: false },
);
/** Why the admin needs the clear password: kept in the audit log beside the reveal. */
export const RevealBody = Type.Object({ reason: RequiredText(500) }, { additionalProperties: false });
export const RevealedBankPassword = Type.Object({ id: Type.Integer(), bank_name: Type.String(), bank_pass: Type.String() });

export const BankMsp = Type.Object({
  id: Type.Integer(),
  msp: Type.String(),
  bank_name: Type.String(),
  create_at: Timestamp,
  update_at: Timestamp,
});
export const CreateBankMspBody = Type.Object({ msp: RequiredText(200), bank_name: RequiredText(200) }, { additionalProperties: false });

/** A stored password changed: its bank's name, and a new password (left out: the stored one stays). */
export const ChangeBankPasswordBody = Type.Object(
  { bank_name: RequiredText(200), bank_pass: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })) },
  { additionalProperties: false },
);

export const IdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2147483647 }) });
