import { Type } from 'typebox';

export const LoginBody = Type.Object({ email: Type.String({ maxLength: 320 }), password: Type.String({ maxLength: 1024 }) }, { additionalProperties: false });
export const TokenPair = Type.Object({ refresh: Type.String(), access: Type.String() });
export const VerifyBody = Type.Object({ token: Type.String({ maxLength: 4096 }) }, { additionalProperties: false });
export const RefreshBody = Type.Object({ refresh: Type.String({ maxLength: 4096 }) }, { additionalProperties: false });
export const AccessOnly = Type.Object({ access: Type.String() });
export const ChangePasswordBody = Type.Object(
  { old_password: Type.String({ maxLength: 1024 }), new_password: Type.String({ minLength: 10, maxLength: 1024 }) },
  { additionalProperties: false },
);
