import { Link } from "@remix-run/react";
import type { PeopleData } from "../admin/people.server";
import { ConfirmPanel, SelectField, SetupForm, TextField, useReplyFor } from "./form-kit";
import { SetupTable } from "./setup-table";

const WHAT = { club: "club", site: "site", registration: "registration form", race: "race", depot: "shipping depot" } as const;

const MAIL_STATE = { queued: "e-mail on its way", sent: "e-mail sent", failed: "e-mail not delivered: send it again" } as const;

/**
 * Who holds which of the target's roles, who is invited, an invite form, and Take back / Withdraw behind a
 * confirmation. The same section on the club, site, registration form, race and depot pages.
 */
export function PeoplePanel({ data, headingLevel = 2 }: { data: PeopleData; headingLevel?: 2 | 3 }) {
  const { errors, values } = useReplyFor("invite");
  const H = headingLevel === 2 ? "h2" : "h3";
  const Sub = headingLevel === 2 ? "h3" : "h4";
  const what = WHAT[data.level];
  return (
    <section aria-labelledby="people-heading">
      <H id="people-heading">People</H>
      <p className="hint">Who works on this {what}, and in which role. An invited person accepts with the account of the address you invite.</p>
      {data.confirm ? (
        <ConfirmPanel
          title={data.confirm.title}
          explanation={
            data.confirm.intent === "revoke"
              ? "They lose the role at once, on every device they are signed in on. You can invite them again later."
              : "The link in their e-mail stops working. You can invite them again later."
          }
          intent={data.confirm.intent}
          target={data.confirm.target}
          action={data.base}
          label={data.confirm.label}
          busyLabel="Working…"
          cancelTo={data.base}
        />
      ) : null}
      <SetupTable
        items={data.holders}
        keyOf={(h) => h.roleId}
        empty={`No one holds a role on this ${what} yet.`}
        columns={[
          {
            header: "Person",
            cell: (h) => (
              <>
                {h.name} <span className="hint">{h.email}</span>
              </>
            ),
          },
          { header: "Role", cell: (h) => h.label },
        ]}
        actions={(h) => (
          <Link to={`${data.base}?revoke=${h.roleId}`} aria-label={`Take back ${h.label} from ${h.name}`}>
            Take back…
          </Link>
        )}
      />
      {data.pending.length > 0 ? (
        <>
          <Sub>Invited</Sub>
          <ul className="plain-list">
            {data.pending.map((p) => (
              <li key={p.id}>
                {`${p.email} as ${p.label} `}
                <span className={p.mailState === "failed" ? "error-text" : "hint"}>
                  ({MAIL_STATE[p.mailState]}; open until {new Date(p.expiresAt).toISOString().slice(0, 10)})
                </span>{" "}
                <Link to={`${data.base}?withdraw=${p.id}`} aria-label={`Withdraw the invitation to ${p.email}`}>
                  Withdraw…
                </Link>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <Sub>Invite someone</Sub>
      <SetupForm intent="invite" label="Send the invitation" busyLabel="Sending…" errors={errors} action={data.base}>
        <TextField id="invite-email" name="email" label="E-mail address" required maxLength={254} defaultValue={values?.email} error={errors.email} />
        <SelectField id="invite-role" name="role" label="Role" defaultValue={values?.role ?? data.roles[0]?.value} error={errors.role} choices={data.roles} />
      </SetupForm>
    </section>
  );
}
