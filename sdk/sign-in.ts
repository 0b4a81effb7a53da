/**
 * The data-service client's sign-in calls (spec section 7, the "data-service client variant" of
 * /_auth/attempt and /_auth/verify). They ride on the sign-in cookies, hence `credentials: "include"`.
 */
import { CREATE_ATTEMPT_FAILED, SignInError, VERIFY_ATTEMPT_FAILED } from "./errors";
import type { FetchLike } from "./tokens";

export const MISSING_ATTEMPT_USER = "Either email or userID must be provided to create a sign-in attempt";

export type SignInProvider = "password" | "link" | "reset" | "switch";

export interface CreateSignInAttemptInput {
  email?: string | null;
  user_id?: string | null;
  /** Default `password`. */
  provider?: SignInProvider;
  /** Where to go after sign-in; sent URI-encoded, as the spec says. */
  goto?: string | null;
  domain?: string | null;
}

export interface SignInAttemptReply {
  attempt_id: string;
  [field: string]: unknown;
}

export type SignInVerification = { password: string } | { totp: string } | { link: string } | { session: true };

/** The verification reply of spec section 7 (the first element of /_auth/verify's array). */
export interface VerifyReply {
  attempt_id?: string | null;
  status: string;
  token?: string | null;
  message?: string;
  user_id?: string | null;
  verify?: string[];
  prompt_passkey?: boolean;
  host?: string | null;
  goto?: string | null;
  [field: string]: unknown;
}

export interface SignInContext {
  baseUrl: string;
  fetch: FetchLike;
}

async function readBody(response: Response): Promise<unknown> {
  try {
    return (await response.json()) as unknown;
  } catch {
    return null;
  }
}

function detailOf(body: unknown): string | null {
  const source = Array.isArray(body) ? (body[0] as unknown) : body;
  if (typeof source !== "object" || source === null) return null;
  const { error, message } = source as { error?: unknown; message?: unknown };
  if (typeof error === "string" && error) return error;
  return typeof message === "string" && message ? message : null;
}

function postJson(context: SignInContext, path: string, body: unknown): Promise<Response> {
  return context.fetch(`${context.baseUrl}${path}`, {
    method: "POST",
    credentials: "include",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
  });
}

/** POST /_auth/attempt: starts a sign-in for a user named by email or id; returns `attempt_id` and the rest of the reply. */
export async function createSignInAttempt(context: SignInContext, input: CreateSignInAttemptInput): Promise<SignInAttemptReply> {
  if (!input.email && !input.user_id) throw new SignInError(MISSING_ATTEMPT_USER, null, null);
  const body: Record<string, string> = { provider: input.provider ?? "password" };
  if (input.email) body.email = input.email;
  if (input.user_id) body.user_id = input.user_id;
  if (input.goto) body.goto = encodeURIComponent(input.goto);
  if (input.domain) body.domain = input.domain;
  let response: Response;
  try {
    response = await postJson(context, "/_auth/attempt", body);
  } catch {
    throw new SignInError(CREATE_ATTEMPT_FAILED, null, null);
  }
  const reply = await readBody(response);
  const attemptId = (reply as { attempt_id?: unknown } | null)?.attempt_id;
  if (!response.ok || typeof attemptId !== "string") throw new SignInError(CREATE_ATTEMPT_FAILED, response.status, detailOf(reply));
  return reply as SignInAttemptReply;
}

/** POST /_auth/verify: one verification step; the reply is a two-element array, the first being the verification. */
export async function verifySignInAttempt(
  context: SignInContext,
  attemptId: string,
  verify: SignInVerification,
): Promise<[VerifyReply, Record<string, unknown>]> {
  let response: Response;
  try {
    response = await postJson(context, "/_auth/verify", { attempt_id: attemptId, verify });
  } catch {
    throw new SignInError(VERIFY_ATTEMPT_FAILED, null, null);
  }
  const reply = await readBody(response);
  if (!response.ok || !Array.isArray(reply) || reply.length !== 2) {
    throw new SignInError(VERIFY_ATTEMPT_FAILED, response.status, detailOf(reply));
  }
  return reply as [VerifyReply, Record<string, unknown>];
}
