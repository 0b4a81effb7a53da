/** The cookies of the sign-in application. All are host-only (no Domain), so each tenant host has its own. */
export const cookieNames = {
  /** `__Host-`: the browser refuses it unless Secure, Path=/ and host-only, so no sibling host can plant or overwrite it (ASVS 3.4.4). */
  session: "__Host-sl_session",
  /** The last sign-in attempt's token: how /login recognises a returning user. */
  attempt: "sl_attempt",
  passkeySkip: "sl_passkey_skip",
  /** A verified sign-in waiting on the passkey offer before it completes. */
  handoff: "sl_handoff",
  /** A random id naming this browser, so its sign-ins are told apart from strangers' (workers/auth/devices.ts). */
  device: "sl_device",
} as const;

export function readCookie(request: Request, name: string): string | null {
  const header = request.headers.get("Cookie");
  if (!header) return null;
  for (const part of header.split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return decodeURIComponent(rest.join("="));
  }
  return null;
}

export function serializeCookie(name: string, value: string, maxAgeSeconds: number, options: { httpOnly?: boolean } = {}): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, "Path=/", `Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}`, "Secure", "SameSite=Lax"];
  if (options.httpOnly !== false) parts.push("HttpOnly");
  return parts.join("; ");
}

export function clearCookie(name: string): string {
  return serializeCookie(name, "", 0);
}
