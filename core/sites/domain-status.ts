/**
 * A custom domain's state in words (decision 0047): what Cloudflare says of the hostname (`status`) and of
 * its certificate (`ssl.status`), turned into what a club's administrator can act on.
 */

/** How the page shows a state: still to do for the club, in Cloudflare's hands, done, or wrong. */
export type DomainTone = "waiting" | "working" | "live" | "problem";

export interface DomainState {
  /** Cloudflare's id of the hostname; null while it is being registered. */
  cloudflareId: string | null;
  /** The hostname's status (pending, active, moved, deleted, blocked …). */
  status: string;
  /** The certificate's status (initializing, pending_validation, pending_issuance, …, active), if known. */
  sslStatus: string | null;
}

export interface DomainWords {
  label: string;
  tone: DomainTone;
  /** One sentence: what happens next, or what the club should do. */
  detail: string;
}

export const DOMAIN_WORDS = {
  registering: { label: "Registering", tone: "working", detail: "The domain is being registered with Cloudflare. Check again in a moment." },
  waitingForDns: {
    label: "Waiting for DNS",
    tone: "waiting",
    detail: "Create the DNS records below at your domain's DNS provider. Changes can take a few minutes to a few hours to be seen.",
  },
  issuing: { label: "Issuing certificate", tone: "working", detail: "The DNS records are found. A certificate for https is being issued." },
  deploying: { label: "Deploying certificate", tone: "working", detail: "The certificate is issued and is being sent to Cloudflare's servers." },
  live: { label: "Live", tone: "live", detail: "The site answers at this domain over https." },
  certificateFailed: {
    label: "Certificate failed",
    tone: "problem",
    detail: "The certificate could not be issued in time. Check the DNS records below, then press Check now.",
  },
  moved: {
    label: "DNS record changed",
    tone: "problem",
    detail: "The domain no longer points to the site. Put the CNAME record below back, then press Check now.",
  },
  blocked: { label: "Blocked", tone: "problem", detail: "Cloudflare refuses this domain. Contact the platform's support." },
  removed: { label: "Removed at Cloudflare", tone: "problem", detail: "Cloudflare no longer has this domain. Remove it here and add it again." },
} as const satisfies Record<string, DomainWords>;

const FAILED_SSL = new Set(["initializing_timed_out", "validation_timed_out", "issuance_timed_out", "deployment_timed_out", "expired"]);
const DEPLOYING_SSL = new Set(["pending_deployment", "staging_deployment", "staging_active", "holding_deployment", "backup_issued"]);

/** The words for a domain's state. Unknown statuses read as waiting, never as live. */
export function domainWords(state: DomainState): DomainWords {
  if (state.cloudflareId === null) return DOMAIN_WORDS.registering;
  const { status, sslStatus } = state;
  if (status === "moved") return DOMAIN_WORDS.moved;
  if (status === "deleted" || status === "pending_deletion") return DOMAIN_WORDS.removed;
  if (status.endsWith("blocked")) return DOMAIN_WORDS.blocked;
  if (sslStatus !== null && FAILED_SSL.has(sslStatus)) return DOMAIN_WORDS.certificateFailed;
  if (status !== "active") return DOMAIN_WORDS.waitingForDns;
  if (sslStatus === "active") return DOMAIN_WORDS.live;
  if (sslStatus === "pending_issuance") return DOMAIN_WORDS.issuing;
  if (sslStatus !== null && DEPLOYING_SSL.has(sslStatus)) return DOMAIN_WORDS.deploying;
  return DOMAIN_WORDS.waitingForDns;
}

/** The Worker serves a site at a domain once Cloudflare has the hostname active (it routes nothing before). */
export const servesSite = (state: DomainState): boolean => state.cloudflareId !== null && state.status === "active";

/** Whether asking Cloudflare again can change anything soon: everything short of live or removed. */
export function settlesLater(state: DomainState): boolean {
  const words = domainWords(state);
  return words !== DOMAIN_WORDS.live && words !== DOMAIN_WORDS.removed && words !== DOMAIN_WORDS.blocked;
}
