import { Link } from "@remix-run/react";
import type { SiteDomainsView } from "../admin/site-domains.server";
import { FormMessage } from "./auth-card";
import { ConfirmPanel, RowButton, SetupForm, TextField, useReplyFor } from "./form-kit";
import { SetupTable } from "./setup-table";

type Domain = Extract<SiteDomainsView, { mayManage: true }>["domains"][number];

const when = (ms: number | null) => (ms === null ? "not yet" : `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`);

/** A site's own domains: add one, the DNS records to create, its state in words, Check now, primary, remove. */
export function SiteDomainsPanel({ data, base }: { data: SiteDomainsView; base: string }) {
  const add = useReplyFor("domain-add");
  const check = useReplyFor("domain-check");
  if (!data.mayManage) {
    return (
      <section aria-labelledby="domains-heading" id="domains">
        <h2 id="domains-heading">Domains</h2>
        <p className="hint">Changing the site's domains needs the Sites area on your Site Administrator role.</p>
      </section>
    );
  }
  return (
    <section aria-labelledby="domains-heading" id="domains">
      <h2 id="domains-heading">Domains</h2>
      <p className="hint">
        Your club's own domain for this site, such as results.example.org. Add it here, create the DNS records shown at your domain's DNS provider, and the site
        answers there over https once the status says Live. Add both example.org and www.example.org to have one lead to the other.
      </p>
      {!data.configured ? <FormMessage error={data.notConfigured} /> : null}
      {data.unreachable ? <FormMessage error={data.unreachable} /> : null}
      {data.removing ? (
        <ConfirmPanel
          title={`Remove ${data.removing.hostname}?`}
          explanation="The site stops answering at this domain at once, and its certificate is deleted. You can add the domain again later."
          intent="domain-remove"
          target={data.removing.id}
          label="Remove the domain"
          busyLabel="Removing…"
          cancelTo={`${base}#domains`}
        />
      ) : null}
      {data.domains.length === 0 ? <p className="empty-state">No domains yet: the site is at its platform address only.</p> : null}
      {data.domains.map((domain) => (
        <DomainCard key={domain.id} domain={domain} base={base} single={data.domains.length === 1} />
      ))}
      {data.domains.length > 0 ? <SetupForm intent="domain-check" label="Check now" busyLabel="Checking…" errors={check.errors} inline /> : null}
      {data.configured ? (
        <>
          <h3>Add a domain</h3>
          <SetupForm intent="domain-add" label="Add the domain" busyLabel="Adding…" errors={add.errors}>
            <TextField
              name="hostname"
              label="Domain"
              hint="For example results.example.org or www.example.org: no http://, no path"
              maxLength={300}
              defaultValue={add.values?.hostname ?? ""}
              error={add.errors.hostname}
              required
            />
          </SetupForm>
        </>
      ) : null}
    </section>
  );
}

function DomainCard({ domain, base, single }: { domain: Domain; base: string; single: boolean }) {
  const { words } = domain;
  return (
    <article className="domain-card" aria-labelledby={`domain-${domain.id}`} data-testid="domain">
      <h3 id={`domain-${domain.id}`}>
        {domain.hostname}
        {domain.isPrimary && !single ? <span className="badge">Primary</span> : null}
      </h3>
      <p>
        <strong className={`domain-status domain-${words.tone}`} data-testid="domain-status">
          {words.label}
        </strong>{" "}
        {words.detail} <span className="hint">Last checked {when(domain.checkedAt)}.</span>
      </p>
      {domain.leadsTo ? <p className="hint">Visitors here are sent on to {domain.leadsTo}, the primary domain, once both are live.</p> : null}
      {domain.errors.length > 0 && domain.showRecords ? (
        <ul className="hint">
          {domain.errors.map((e) => (
            <li key={e}>Cloudflare says: {e}</li>
          ))}
        </ul>
      ) : null}
      {domain.showRecords ? (
        <div>
          <h4>DNS records to create</h4>
          <SetupTable
            items={domain.records}
            keyOf={(r) => `${r.type}-${r.name}`}
            empty=""
            columns={[
              { header: "Type", cell: (r) => r.type },
              { header: "Name", cell: (r) => <code>{r.name}</code> },
              { header: "Value", cell: (r) => <code>{r.value}</code> },
              { header: "Why", cell: (r) => r.purpose },
            ]}
          />
          <p className="hint">
            At a bare domain such as example.org, some DNS providers call the CNAME record an ALIAS or ANAME record, or flatten it; use what yours offers.
          </p>
        </div>
      ) : null}
      <div className="actions">
        {!domain.isPrimary ? (
          <RowButton intent="domain-primary" target={domain.id} label="Make primary" accessibleLabel={`Make ${domain.hostname} primary`} />
        ) : null}
        <Link to={`${base}?removeDomain=${domain.id}#domains`} className="danger-link" aria-label={`Remove ${domain.hostname}`}>
          Remove…
        </Link>
      </div>
    </article>
  );
}
