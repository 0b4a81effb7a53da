import * as z from "zod";

/** Bodies of the /_auth/* endpoints (platform.md section 7), JSON or form-encoded. */

const optionalText = z.string().trim().max(2000).optional().nullable();

export const createAttemptSchema = z
  .object({
    email: z.string().trim().max(320).optional().nullable(),
    user_id: z.string().max(64).optional().nullable(),
    method: z.enum(["password", "link", "reset", "switch"]).optional(),
    provider: z.enum(["password", "link", "reset", "switch"]).optional(),
    goto: optionalText,
    domain: optionalText,
    role: optionalText,
  })
  .transform((b) => ({
    email: b.email || null,
    userId: b.user_id || null,
    method: b.method ?? b.provider ?? "password",
    goto: b.goto ?? null,
    domain: b.domain ?? null,
    roleId: b.role ?? null,
  }));

export const verifyValueSchema = z.union([
  z.object({ password: z.string().min(1).max(1000) }),
  z.object({ totp: z.string().max(20) }),
  z.object({ link: z.string().min(1).max(200) }),
  z.object({ session: z.literal(true) }),
]);

export const verifyAttemptSchema = z.object({ attempt_id: z.string().uuid(), verify: verifyValueSchema });

export const mailSchema = z.object({ email: z.string().trim().min(1).max(320), attempt_id: z.string().uuid() });

/** With a reset token; or for the signed-in user, who proves it with the current password (ASVS 2.1.6). */
export const setPasswordSchema = z.object({
  password: z.string().max(1000),
  token: z.string().max(200).optional(),
  email: z.string().max(320).optional(),
  current_password: z.string().max(1000).optional(),
  sign_out_others: z.union([z.boolean(), z.enum(["true", "false", "on", "yes", "no"])]).optional(),
});

export const checkPasswordSchema = z.object({ password: z.string().max(1000) });

export const loginFormSchema = z.object({ token: z.string().min(1).max(200), role: optionalText, goto: optionalText });

export const signupSchema = z.object({
  email: z
    .string()
    .trim()
    .max(320)
    .refine((v) => v.includes("@"), "Enter an email address"),
  name: z.string().trim().min(1, "Enter your name").max(200),
  phone: z.string().trim().max(40).optional().nullable(),
});

export const passkeyRegisterBeginSchema = z.object({ user_id: z.string().max(64), attempt_token: z.string().max(200).optional().nullable() });
/** The parts of a WebAuthn response read before its checks; core/auth/passkey/ceremony.ts reads and checks the rest. */
const webauthnResponseSchema = z.looseObject({ id: z.string().min(1).max(1024), response: z.looseObject({ clientDataJSON: z.string().min(1).max(16_384) }) });
export const passkeyRegisterCompleteSchema = passkeyRegisterBeginSchema.extend({ credential: webauthnResponseSchema });
export const passkeyAuthenticateBeginSchema = z.object({
  user_id: z.string().max(64).optional().nullable(),
  client: z.string().max(200).optional().nullable(),
});
/** `reauth`: re-authenticate the signed-in session with this passkey instead of starting a new one. */
export const passkeyAuthenticateCompleteSchema = z.object({ credential: webauthnResponseSchema, goto: optionalText, reauth: z.boolean().optional() });
export const passkeyDeleteSchema = z.object({ passkey_id: z.string().min(1).max(1024), user_id: z.string().max(64) });
