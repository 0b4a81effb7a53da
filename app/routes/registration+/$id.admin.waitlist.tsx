import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { CHANGE_WAITLIST_WORDS } from "../../../core/registration/change-waitlist";
import { useLoaderData, useNavigation } from "@remix-run/react";
import { moveWaitlistEntry, offerFreedPlaces, removeWaitlistEntry, waitlistOf } from "../../../workers/services/waitlists";
import { requireRegistrationAccess, withNotice } from "../../registration-admin.server";
import { readPostedForm, refuse, unknownIntent } from "../../forms/posted-form.server";
import { ConfirmForm, RowButton, useReplyFor } from "../../components/form-kit";
import { ErrorPage, REGISTRATION_ADMIN_ERRORS } from "../../components/error-page";

const STATE_WORDS: Record<string, string> = {
  waiting: "Waiting",
  offered: "Offered",
  accepted: "Took the place",
  expired: "Offer lapsed",
  removed: "Taken off",
};

function when(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace("T", " ");
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { registration, builder } = await requireRegistrationAccess(request, context, params.id, "edit");
  // The list the organiser sees is the list as it stands: lapsed offers and freed places are dealt with first.
  await offerFreedPlaces(context.env, builder.db, registration.id, context.now);
  const list = await waitlistOf(builder.db, registration.id);
  const removing = new URL(request.url).searchParams.get("remove");
  return {
    registrationId: registration.id,
    isOn: registration.waitlistOfferHours !== null,
    hours: registration.waitlistOfferHours,
    active: list.active.map((e) => ({ ...e, joined: when(e.joinedAt), until: e.offerExpiresAt ? when(e.offerExpiresAt) : "" })),
    past: list.past.map((e) => ({ ...e, joined: when(e.joinedAt) })),
    removing: list.active.find((e) => e.id === removing) ?? null,
  };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { registration, builder } = await requireRegistrationAccess(request, context, params.id, "edit");
  const posted = await readPostedForm(request);
  const base = `/registration/${registration.id}/admin/waitlist`;
  const target = posted.target ?? "";
  if (posted.intent === "move-up" || posted.intent === "move-down") {
    // A move that no longer applies (the person was offered or moved meanwhile) just shows the list as it is.
    await moveWaitlistEntry(builder.db, registration.id, target, posted.intent === "move-up" ? "up" : "down", context.now);
    return redirect(withNotice(base, "moved"));
  }
  if (posted.intent === "remove") {
    const removed = await removeWaitlistEntry(builder.db, registration.id, target, context.now);
    if (!removed) return refuse(posted, { form: "This person is no longer waiting." }, 409);
    await offerFreedPlaces(context.env, builder.db, registration.id, context.now);
    return redirect(withNotice(base, "waitlistRemoved"));
  }
  return unknownIntent(posted);
}

export default function RegistrationWaitlist() {
  const data = useLoaderData<typeof loader>();
  const pending = useNavigation().state !== "idle";
  const removeReply = useReplyFor("remove");
  const base = `/registration/${data.registrationId}/admin/waitlist`;
  if (data.removing)
    return (
      <ConfirmForm
        title={`Take ${data.removing.name} off the waitlist?`}
        intent="remove"
        hidden={{ target: data.removing.id }}
        label="Take off the waitlist"
        pendingLabel="Taking off…"
        pending={pending}
        cancelTo={base}
        error={removeReply.errors.form}
        danger
      >
        <p>
          {data.removing.state === "offered"
            ? "Their offer is withdrawn and the place held for them goes to the next person waiting."
            : "They will not be offered a place. They are not told."}
        </p>
      </ConfirmForm>
    );
  return (
    <section aria-labelledby="waitlist-heading">
      <h2 id="waitlist-heading">Waitlist</h2>
      <p className="hint">
        {data.isOn
          ? `A freed place is held for the next person for ${data.hours} hours. People are offered places in this order; move them to change it.`
          : "The waitlist is off: turn it on in Settings. People already waiting stay here but are not offered places."}
      </p>
      {removeReply.errors.form ? (
        <p role="alert" className="form-error">
          {removeReply.errors.form}
        </p>
      ) : null}
      {data.active.length === 0 ? (
        <p>No one is waiting.</p>
      ) : (
        <div className="table-scroll">
          <table className="data-table" data-testid="waitlist">
            <thead>
              <tr>
                <th scope="col" className="num">
                  #
                </th>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Waiting for</th>
                <th scope="col">Request</th>
                <th scope="col">Joined (UTC)</th>
                <th scope="col">State</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {data.active.map((e, i) => (
                <tr key={e.id}>
                  <td className="num">{i + 1}</td>
                  <th scope="row">{e.name}</th>
                  <td>{e.email}</td>
                  <td>{e.wish}</td>
                  <td data-testid="waitlist-request">{requestWords(e.changeFor)}</td>
                  <td>{e.joined}</td>
                  <td>{e.state === "offered" ? `Offered until ${e.until} UTC` : STATE_WORDS[e.state]}</td>
                  <td>
                    {e.state === "waiting" ? (
                      <>
                        <RowButton intent="move-up" target={e.id} label="Up" accessibleLabel={`Move ${e.name} up`} disabled={pending || i === 0} />
                        <RowButton intent="move-down" target={e.id} label="Down" accessibleLabel={`Move ${e.name} down`} disabled={pending} />
                      </>
                    ) : null}
                    <a href={`${base}?remove=${e.id}`} className="danger-link" aria-label={`Take ${e.name} off the waitlist`}>
                      Take off…
                    </a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {data.past.length > 0 ? (
        <>
          <h3 id="waitlist-past">No longer waiting</h3>
          <table className="data-table" aria-labelledby="waitlist-past">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Waited for</th>
                <th scope="col">Request</th>
                <th scope="col">Joined (UTC)</th>
                <th scope="col">Outcome</th>
              </tr>
            </thead>
            <tbody>
              {data.past.map((e) => (
                <tr key={e.id}>
                  <th scope="row">{e.name}</th>
                  <td>{e.email}</td>
                  <td>{e.wish}</td>
                  <td data-testid="waitlist-request">{requestWords(e.changeFor)}</td>
                  <td>{e.joined}</td>
                  <td>{STATE_WORDS[e.state]}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
    </section>
  );
}

/** A new entry, or a change to a paid person's entry waiting for a place (decision 0066). */
const requestWords = (changeFor: string | null) => (changeFor === null ? CHANGE_WAITLIST_WORDS.en.kindNew : CHANGE_WAITLIST_WORDS.en.kindChange(changeFor));

export const ErrorBoundary = () => <ErrorPage {...REGISTRATION_ADMIN_ERRORS} />;
