import { Type } from 'typebox';

export const LoginBody = Type.Object({ email: Type.String({ maxLength: 320 }), password: Type.String({ maxLength: 1024 }) }, { additionalProperties: false });
export const TokenPair = Type.Object({ refresh: Type.String(), access: Type.String() });
export const VerifyBody = Type.Object({ token: Type.String({ maxLength: 4096 }) }, { additionalProperties: false });
/** The refresh token: in the body (API clients), or left out when the console's cookie carries it. */
export const RefreshBody = Type.Object({ refresh: Type.Optional(Type.String({ maxLength: 4096 })) }, { additionalProperties: false });
export const AccessOnly = Type.Object({ access: Type.String() });
export const ChangePasswordBody = Type.Object(
  { old_password: Type.String({ maxLength: 1024 }), new_password: Type.String({ minLength: 10, maxLength: 1024 }) },
  { additionalProperties: false },
);

/** What the login page offers: single sign-on (with the provider's name) and the password form. */
export const SsoInfo = Type.Object({
  enabled: Type.Boolean(),
  display_name: Type.Union([Type.String(), Type.Null()]),
  local_login: Type.Boolean(),
});
/** The one-time code the provider's callback left in the console's address, for its tokens. */
export const SsoExchangeBody = Type.Object({ code: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false });
/** Where the browser goes to end the provider's session too (null: the provider offers no logout). */
export const SsoLogoutAnswer = Type.Object({ redirect: Type.Union([Type.String(), Type.Null()]) });
/** The provider's callback: its parameters as it sends them (others it may add are ignored). */
export const SsoCallbackQuery = Type.Object({
  code: Type.Optional(Type.String({ maxLength: 4096 })),
  state: Type.Optional(Type.String({ maxLength: 512 })),
  error: Type.Optional(Type.String({ maxLength: 200 })),
  error_description: Type.Optional(Type.String({ maxLength: 2000 })),
});
export const BackchannelLogoutBody = Type.Object({ logout_token: Type.String({ minLength: 1, maxLength: 16384 }) });
/** A browser sent elsewhere (to the provider, or back to the login page). */
export const Redirect = { description: 'A redirect: the Location header says where.', type: 'null' } as const;
