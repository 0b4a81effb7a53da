/**
 * A club's own domain as typed into the Domains section (decision 0047): one rule for the page, the service
 * and the Worker. It lowercases, turns international names into their ASCII (punycode) form and refuses
 * what cannot be a club's domain, with words that say how to fix it.
 */

export const HOSTNAME_MESSAGES = {
  empty: "Enter the domain, for example club.example.org",
  scheme: "Enter the domain without http:// or https://, for example club.example.org",
  path: "Enter the domain only, without a path such as /races",
  port: "Enter the domain without a port number",
  wildcard: "Enter one domain: wildcards such as *.example.org are not supported",
  ip: "Enter a domain name, not an IP address",
  noDot: "Enter a full domain with a dot, for example club.example.org",
  tooLong: "A domain is at most 253 characters, and each part between its dots at most 63",
  invalid: "This is not a valid domain: use letters, digits and hyphens, with dots between the parts",
  taken: "This domain is already used by another site.",
} as const;

/** The words for a domain under one of the platform's own names. */
export const platformDomainMessage = (domain: string) => `Addresses under ${domain} belong to Startline: enter a domain your club owns`;

export type HostnameCheck = { ok: true; hostname: string } | { ok: false; message: string };

const LABEL = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;
// A top-level domain is never all digits (or hex), so such a name is an IPv4 address in some spelling.
const NUMERIC_LABEL = /^(0x[0-9a-f]*|[0-9]+)$/;

/** The name in ASCII: international labels become xn-- labels (IDNA, through the URL parser every runtime has). */
function toAscii(name: string): string | null {
  // Plain names pass only in the characters a hostname has; the parser would also decode %-escapes.
  if ([...name.replace(/[a-z0-9.-]/g, "")].some((c) => c.charCodeAt(0) < 128)) return null;
  try {
    return new URL(`http://${name}/`).hostname;
  } catch {
    return null;
  }
}

/** A typed domain, normalised, or why it cannot be one. Platform names are checked by `checkClubHostname`. */
export function normaliseDomain(input: string): HostnameCheck {
  let name = input.trim().toLowerCase();
  if (name === "") return { ok: false, message: HOSTNAME_MESSAGES.empty };
  // Longer than any hostname with a scheme and path around it: no need to read further.
  if (name.length > 1000) return { ok: false, message: HOSTNAME_MESSAGES.tooLong };
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(name)) return { ok: false, message: HOSTNAME_MESSAGES.scheme };
  if (/[/?#\\]/.test(name)) return { ok: false, message: HOSTNAME_MESSAGES.path };
  if (name.includes("*")) return { ok: false, message: HOSTNAME_MESSAGES.wildcard };
  if (name.startsWith("[") || /^[0-9a-f:]+:[0-9a-f:]*$/.test(name)) return { ok: false, message: HOSTNAME_MESSAGES.ip };
  if (name.includes(":")) return { ok: false, message: HOSTNAME_MESSAGES.port };
  if (/[\s@]/.test(name)) return { ok: false, message: HOSTNAME_MESSAGES.invalid };
  if (name.endsWith(".")) name = name.slice(0, -1);
  const ascii = toAscii(name);
  if (ascii === null || ascii === "") return { ok: false, message: HOSTNAME_MESSAGES.invalid };
  const labels = ascii.split(".");
  if (labels.length < 2) return { ok: false, message: HOSTNAME_MESSAGES.noDot };
  if (NUMERIC_LABEL.test(labels.at(-1)!)) return { ok: false, message: HOSTNAME_MESSAGES.ip };
  if (ascii.length > 253 || labels.some((l) => l.length > 63)) return { ok: false, message: HOSTNAME_MESSAGES.tooLong };
  if (!labels.every((l) => LABEL.test(l))) return { ok: false, message: HOSTNAME_MESSAGES.invalid };
  return { ok: true, hostname: ascii };
}

/** Whether `hostname` is `domain` itself or a name under it. */
export function isUnder(hostname: string, domain: string): boolean {
  return hostname === domain || hostname.endsWith(`.${domain}`);
}

/**
 * A domain a club may claim: a valid name that is none of the platform's own (the main and admin hosts, and
 * every name under them, where clubs' platform addresses live).
 */
export function checkClubHostname(input: string, platformDomains: readonly string[]): HostnameCheck {
  const checked = normaliseDomain(input);
  if (!checked.ok) return checked;
  const ours = platformDomains.find((domain) => domain !== "" && isUnder(checked.hostname, domain));
  return ours === undefined ? checked : { ok: false, message: platformDomainMessage(ours) };
}

/** The www and bare forms of a domain are one site's two addresses: `www.example.org` ↔ `example.org`. */
export function wwwPartnerOf(hostname: string): string {
  const bare = hostname.startsWith("www.") ? hostname.slice(4) : null;
  // www.org is a bare name of its own, not the www form of "org".
  return bare !== null && bare.includes(".") ? bare : `www.${hostname}`;
}

/** Where a request for `hostname` goes instead: the site's primary domain when `hostname` is its www or bare partner. */
export function wwwRedirectTarget(hostname: string, primary: string | null): string | null {
  return primary !== null && primary !== hostname && wwwPartnerOf(hostname) === primary ? primary : null;
}
