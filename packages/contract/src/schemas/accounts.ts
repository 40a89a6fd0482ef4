import { Type } from 'typebox';
import { Timestamp } from './common.ts';

const Role = Type.Union([Type.Literal('operator'), Type.Literal('admin')]);

export const Account = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  role: Role,
  is_active: Type.Boolean(),
  must_change_password: Type.Boolean(),
  last_login: Type.Union([Timestamp, Type.Null()]),
  create_at: Timestamp,
});

export const CreateAccountBody = Type.Object(
  {
    email: Type.String({ maxLength: 320, pattern: '^[^\\s@]+@[^\\s@]+$' }),
    // As user:create: long enough to be a passphrase, and bounded (argon2 hashes what it is given).
    password: Type.String({ minLength: 10, maxLength: 1024 }),
    role: Role,
  },
  { additionalProperties: false },
);

export const ChangeAccountBody = Type.Object(
  { role: Type.Optional(Role), is_active: Type.Optional(Type.Boolean()) },
  { additionalProperties: false, minProperties: 1 },
);

export const AccountParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2147483647 }) });

/** A password the admin gives the user, who must choose their own at the next login. */
export const ResetPasswordBody = Type.Object({ password: Type.String({ minLength: 10, maxLength: 1024 }) }, { additionalProperties: false });
