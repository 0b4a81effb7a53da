/**
 * Where a sign-in may return to. A relative path stays on the current host; an absolute URL is allowed only
 * when its hostname is one of the tenant's own hosts. Anything else (another site, `//evil`, `javascript:`)
 * becomes null, and the caller falls back to its default page.
 */
export function safeGoto(goto: string | null | undefined, allowedHosts: readonly string[]): string | null {
  if (!goto) return null;
  let value = goto.trim();
  // The data-service client sends goto encoded (spec section 7); decode it once, then check it like any other.
  if (/^(%2F|https?%3A)/i.test(value)) {
    try {
      value = decodeURIComponent(value);
    } catch {
      return null;
    }
  }
  if (value.startsWith("/") && !value.startsWith("//") && !value.startsWith("/\\")) return value;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  if (url.username || url.password) return null;
  return allowedHosts.includes(url.hostname.toLowerCase()) ? url.toString() : null;
}
