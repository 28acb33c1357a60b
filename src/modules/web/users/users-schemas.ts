import { Type } from 'typebox';

/**
 * The JSON of signing in (both pages), of the signed-in user's two-step sign-in, and of the admin
 * API's users, invitations and audit log. Imports only typebox (the browser code imports its types).
 */
export const SignInBody = Type.Object(
  {
    email: Type.String({ minLength: 3, maxLength: 254 }),
    password: Type.String({ minLength: 1, maxLength: 500 }),
    code: Type.Optional(
      Type.String({
        maxLength: 20,
        description:
          'the 6-digit code of the authenticator app, or an unused recovery code (`abcde-fghjk`), for a user with two-step sign-in on',
      }),
    ),
  },
  { additionalProperties: false },
);
/** A password reset's request, and an invitation's (admin API and console). */
export const EmailBody = Type.Object(
  { email: Type.String({ minLength: 3, maxLength: 254 }) },
  { additionalProperties: false },
);

export const WelcomeBody = Type.Object(
  {
    token: Type.String({ minLength: 10, maxLength: 200 }),
    password: Type.String({ minLength: 1, maxLength: 500 }),
  },
  { additionalProperties: false },
);

export const WebUser = Type.Object({
  userId: Type.Integer(),
  kind: Type.String(),
  accountId: Type.Union([Type.Integer(), Type.Null()]),
  email: Type.String(),
  active: Type.Boolean({ description: 'the user has set a password (accepted the invitation)' }),
  role: Type.String({
    description:
      'dashboard: owner, developer, finance, support or viewer; console: admin or support (docs/dashboard-and-console.md)',
  }),
  totpEnabled: Type.Boolean({ description: 'two-step sign-in is on' }),
  createdAt: Type.String(),
});

export const SessionInfo = Type.Object({
  email: Type.String(),
  accountId: Type.Union([Type.Integer(), Type.Null()]),
  accountName: Type.Union([Type.String(), Type.Null()]),
  csrfToken: Type.String({ description: 'Send it back in X-CSRF-Token with every POST' }),
  totpEnabled: Type.Boolean({ description: 'two-step sign-in (TOTP) is on for this user' }),
  role: Type.String({ description: "the user's role" }),
  permissions: Type.Array(Type.String(), {
    description: 'what the role allows: the `x-permission` an operation of this page takes',
  }),
  recoveryCodesLeft: Type.Integer({ description: 'recovery codes of two-step sign-in not used yet' }),
});
export const CodeBody = Type.Object(
  {
    code: Type.String({
      maxLength: 20,
      description: 'the 6-digit code of the authenticator app (with two-step sign-in on, or a recovery code)',
    }),
  },
  { additionalProperties: false },
);
export const TotpEnrolment = Type.Object({
  secret: Type.String({ description: 'the secret in base32, to type into an authenticator app' }),
  uri: Type.String({ description: 'the otpauth:// URI (what the QR code holds)' }),
});
export const TotpState = Type.Object({
  totpEnabled: Type.Boolean(),
  recoveryCodes: Type.Optional(
    Type.Array(Type.String(), {
      description:
        'when two-step sign-in is turned on (or the codes made again): 10 recovery codes, shown this once; each works once in place of a code',
    }),
  ),
  recoveryCodesLeft: Type.Integer({ description: 'recovery codes not used yet' }),
});

export const Ok = Type.Object({ ok: Type.Boolean() });

export const UserList = Type.Object({ items: Type.Array(WebUser) });

export const Invitation = Type.Object({
  ...WebUser.properties,
  link: Type.String({ description: 'One-time link to set the password' }),
  expiresAt: Type.String(),
});
