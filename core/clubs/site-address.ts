/**
 * The address a new club's site gets at once: a label under the platform's main host
 * (riverside-nordic.startline.app). Made from the club's name unless the founder chooses one.
 */

export const SITE_LABEL_MESSAGES = {
  shape: "Use 3 to 40 lowercase letters, digits and hyphens, starting with a letter",
  reserved: "This address is reserved; choose another",
  taken: "This address is taken; choose another",
} as const;

/** Labels the platform keeps for itself or that would mislead visitors. */
const RESERVED = new Set(["admin", "www", "api", "app", "mail", "smtp", "static", "assets", "cdn", "login", "auth", "status", "help", "support", "startline"]);

const LABEL = /^[a-z][a-z0-9-]{1,38}[a-z0-9]$/;

/** A label from a club's name: accents dropped, words joined by hyphens, at most 40 characters; "" when nothing usable is left. */
export function siteLabelOf(name: string): string {
  const words = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^[^a-z]+/, "")
    .replace(/-+$/, "");
  const cut = words.slice(0, 40).replace(/-+$/, "");
  return cut.length >= 3 ? cut : cut ? `${cut}-club` : "";
}

/** What is wrong with a label, or null when it may be used (if no other site has it). */
export function siteLabelProblem(label: string): string | null {
  if (!LABEL.test(label) || label.includes("--")) return SITE_LABEL_MESSAGES.shape;
  if (RESERVED.has(label)) return SITE_LABEL_MESSAGES.reserved;
  return null;
}

/** The label itself, then the same with -2 … -9, for a name whose label another site already has. */
export function labelCandidates(label: string): string[] {
  return [label, ...Array.from({ length: 8 }, (_, i) => `${label.slice(0, 37)}-${i + 2}`)];
}
