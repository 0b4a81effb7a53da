import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fcParams } from "../testing/fast-check";
import { DOMAIN_WORDS, domainWords, servesSite, settlesLater } from "./domain-status";

const state = (status: string, sslStatus: string | null, cloudflareId: string | null = "0123abcd") => ({ cloudflareId, status, sslStatus });

describe("a custom domain's state in words", () => {
  it("walks from registering to live as Cloudflare moves it along", () => {
    expect(domainWords(state("pending", null, null)).label).toBe("Registering");
    expect(domainWords(state("pending", "initializing")).label).toBe("Waiting for DNS");
    expect(domainWords(state("pending", "pending_validation")).label).toBe("Waiting for DNS");
    expect(domainWords(state("active", "pending_validation")).label).toBe("Waiting for DNS");
    expect(domainWords(state("active", "pending_issuance")).label).toBe("Issuing certificate");
    expect(domainWords(state("active", "pending_deployment")).label).toBe("Deploying certificate");
    expect(domainWords(state("active", "active"))).toEqual(DOMAIN_WORDS.live);
  });

  it("names what went wrong", () => {
    expect(domainWords(state("moved", "active")).label).toBe("DNS record changed");
    expect(domainWords(state("deleted", "deleted")).label).toBe("Removed at Cloudflare");
    expect(domainWords(state("pending_blocked", "initializing")).label).toBe("Blocked");
    expect(domainWords(state("pending", "validation_timed_out")).label).toBe("Certificate failed");
    expect(domainWords(state("active", "expired")).tone).toBe("problem");
  });

  it("serves the site once the hostname is active, and stops asking once live or gone", () => {
    expect(servesSite(state("active", "pending_issuance"))).toBe(true);
    expect(servesSite(state("pending", "active"))).toBe(false);
    expect(servesSite(state("active", "active", null))).toBe(false);
    expect(settlesLater(state("active", "active"))).toBe(false);
    expect(settlesLater(state("pending", "pending_validation"))).toBe(true);
    expect(settlesLater(state("deleted", null))).toBe(false);
  });

  it("never calls a domain live unless both the hostname and its certificate are active", () => {
    const statuses = fc.constantFrom("pending", "active", "moved", "deleted", "blocked", "test_pending", "weird");
    const ssl = fc.option(fc.constantFrom("initializing", "pending_validation", "pending_issuance", "pending_deployment", "active", "expired", "new_status"));
    fc.assert(
      fc.property(statuses, ssl, fc.boolean(), (status, sslStatus, registered) => {
        const words = domainWords(state(status, sslStatus, registered ? "id" : null));
        expect(words.label === "Live").toBe(registered && status === "active" && sslStatus === "active");
        expect(words.label.length).toBeGreaterThan(0);
      }),
      fcParams(),
    );
  });
});
