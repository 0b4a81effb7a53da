import { Form, useNavigation } from "@remix-run/react";
import { MAX_MENU_ITEMS } from "../../core/sites/site-links";
import type { SiteLink } from "../../schema/wire/site-config";
import { FormMessage } from "./auth-card";
import { SetupForm, TextField, useReplyFor } from "./form-kit";

interface NavData {
  mayEdit: boolean;
  french: boolean;
  mtime: number;
  menu: SiteLink[];
  footer: { text: string; textFr?: string; links: SiteLink[] };
}

/** Move up, move down and remove buttons of one link: each a small form, so the editor needs no JavaScript. */
function LinkSteps({ list, at, count, mtime }: { list: "menu" | "footer"; at: number; count: number; mtime: number }) {
  const busy = useNavigation().state !== "idle";
  const step = (name: string, label: string, accessible: string) => (
    <Form method="post" className="row-button">
      <input type="hidden" name="intent" value={`${list}-${name}`} />
      <input type="hidden" name="at" value={at} />
      <input type="hidden" name="mtime" value={mtime} />
      <button type="submit" className="small secondary" disabled={busy} aria-label={accessible}>
        {label}
      </button>
    </Form>
  );
  return (
    <>
      {at > 0 ? step("up", "Move up", `Move link ${at + 1} up`) : null}
      {at < count - 1 ? step("down", "Move down", `Move link ${at + 1} down`) : null}
      {step("remove", "Remove", `Remove link ${at + 1}`)}
    </>
  );
}

/** One list of links (the menu or the footer's) and the form that adds one. */
function LinkList({ list, links, french, mtime, title }: { list: "menu" | "footer"; links: SiteLink[]; french: boolean; mtime: number; title: string }) {
  const reply = useReplyFor(`${list}-add`);
  const steps = [useReplyFor(`${list}-up`), useReplyFor(`${list}-down`), useReplyFor(`${list}-remove`)];
  const stepError = steps.map((step) => step.errors.form).find(Boolean);
  return (
    <>
      <h3>{title}</h3>
      {stepError ? <FormMessage error={stepError} /> : null}
      {links.length === 0 ? <p className="empty-state">No links yet.</p> : null}
      <ol className="plain-list">
        {links.map((link, i) => (
          <li key={`${i}-${link.href}`} className="nav-link-row">
            <span>
              <strong>{link.label}</strong>
              {link.labelFr ? <span lang="fr"> / {link.labelFr}</span> : null} → <code>{link.href}</code>
            </span>{" "}
            <LinkSteps list={list} at={i} count={links.length} mtime={mtime} />
          </li>
        ))}
      </ol>
      {links.length < MAX_MENU_ITEMS ? (
        <SetupForm intent={`${list}-add`} label="Add the link" busyLabel="Adding…" errors={reply.errors}>
          <input type="hidden" name="mtime" value={mtime} />
          <TextField id={`${list}-label`} name="label" label="Label" maxLength={40} defaultValue={reply.values?.label} error={reply.errors.label} required />
          {french ? (
            <TextField
              id={`${list}-labelFr`}
              name="labelFr"
              label="Label in French (optional)"
              maxLength={40}
              defaultValue={reply.values?.labelFr}
              error={reply.errors.labelFr}
            />
          ) : null}
          <TextField
            id={`${list}-href`}
            name="href"
            label="Goes to"
            hint="A page of this site such as /about or /events, or an https:// address"
            defaultValue={reply.values?.href}
            error={reply.errors.href}
            required
          />
        </SetupForm>
      ) : (
        <p className="hint">{`At most ${MAX_MENU_ITEMS} links: remove one to add another.`}</p>
      )}
    </>
  );
}

/** The site's menu (shown in its header) and footer, each change saved at once and visible to visitors on their next page. */
export function SiteNavEditor({ nav }: { nav: NavData }) {
  const footer = useReplyFor("footer-text");
  if (!nav.mayEdit) return null;
  return (
    <section aria-labelledby="nav-heading">
      <h2 id="nav-heading">Menu and footer</h2>
      <p className="hint">The menu is in the site's header, in this order; with no link it shows Events.</p>
      <LinkList list="menu" links={nav.menu} french={nav.french} mtime={nav.mtime} title="Menu" />
      <h3>Footer</h3>
      <SetupForm intent="footer-text" label="Save the footer text" busyLabel="Saving…" errors={footer.errors}>
        <input type="hidden" name="mtime" value={nav.mtime} />
        <TextField name="text" label="Footer text" maxLength={500} defaultValue={footer.values?.text ?? nav.footer.text} error={footer.errors.text} />
        {nav.french ? (
          <TextField name="textFr" label="Footer text in French" maxLength={500} defaultValue={footer.values?.textFr ?? nav.footer.textFr ?? ""} />
        ) : null}
      </SetupForm>
      <LinkList list="footer" links={nav.footer.links} french={nav.french} mtime={nav.mtime} title="Footer links" />
    </section>
  );
}
