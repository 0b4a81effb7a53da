import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { labelIn } from "../../../core/forms/bilingual";
import { PEOPLE_LABEL_MAX } from "../../../core/registration/people-labels";
import { changeRegistration, listElements } from "../../../workers/services/registration-forms";
import { syncRegistrationRacers } from "../../../workers/services/registration-racers";
import { raceLinkView, saveRaceLinks } from "../../../workers/services/race-links";
import { raceLinkValues, raceLinksFromPost } from "../../registration-race-links.server";
import { RaceLinksPanel } from "../../components/race-links-panel";
import { FIELD_TYPE_MODULES } from "../../../core/forms/registry";
import {
  cancelPolicySchema,
  cancelPolicyValuesOf,
  clubZone,
  parseSettings,
  requireRegistrationAccess,
  settingsValuesOf,
  withNotice,
} from "../../registration-admin.server";
import { fieldErrorsOf } from "../../../core/entity/field-errors";
import { formatMoney } from "../../../core/money/money";
import { cartChangesOf, setCancelPolicy } from "../../../workers/services/cancellations";
import { parseOfferHours } from "../../../core/registration/waitlist";
import { parseTransferFee } from "../../../core/registration/person-changes";
import { setTransferFee } from "../../../workers/services/person-changes";
import { offerFreedPlaces, setWaitlistHours } from "../../../workers/services/waitlists";
import { readPostedForm, refuse, unknownIntent } from "../../forms/posted-form.server";
import { CheckboxField, SelectField, SetupForm, TextField, useReplyFor } from "../../components/form-kit";
import { nameFieldErrors } from "../../../core/registration/settings-rules";
import { ErrorPage, REGISTRATION_ADMIN_ERRORS } from "../../components/error-page";

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { registration, builder } = await requireRegistrationAccess(request, context, params.id, "edit");
  const zone = await clubZone(builder.db, registration.clubId);
  const elements = await listElements(builder.db, registration.id);
  const textFields = elements.filter((e) => e.type === "text").map((e) => ({ value: e.id, label: labelIn(e.caption, "en") || "(no caption)" }));
  const view = await raceLinkView(context.env, builder.db, registration, elements);
  const race = {
    ...view,
    inputs: elements.filter((e) => FIELD_TYPE_MODULES[e.type].isInput).map((e) => ({ id: e.id, label: labelIn(e.caption, "en") || "(no caption)" })),
    values: raceLinkValues(registration, view),
  };
  const linked = Boolean(registration.raceId || registration.raceOptionField);
  const changes = (await cartChangesOf(builder.db, registration.id, 50)).map((c) => ({
    id: c.id,
    kind: c.kind,
    amount: formatMoney(c.amount),
    actor: c.actor,
    detail: changeDetailOf(c.detail),
    at: new Date(c.createdAt).toISOString().slice(0, 16).replace("T", " "),
  }));
  const values: Record<string, string> = {
    ...settingsValuesOf(registration, zone),
    ...cancelPolicyValuesOf(registration, zone),
    waitlist_offer_hours: registration.waitlistOfferHours === null ? "" : String(registration.waitlistOfferHours),
    transfer_fee: registration.transferFee === null ? "" : formatMoney(registration.transferFee),
  };
  return {
    registrationId: registration.id,
    zone,
    values,
    textFields,
    isBilingual: registration.isBilingual,
    race,
    linked,
    changes,
  };
}

/** "Ada Runner → Bo Runner" for a change that renamed the person; their name otherwise. */
function changeDetailOf(detail: string): string {
  try {
    const { from, to } = JSON.parse(detail || "{}") as { from?: string; to?: string };
    return from && to && from !== to ? `${from} → ${to}` : (to ?? from ?? "");
  } catch {
    return "";
  }
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { registration, builder } = await requireRegistrationAccess(request, context, params.id, "edit");
  const posted = await readPostedForm(request);
  if (posted.intent === "race") {
    const elements = await listElements(builder.db, registration.id);
    const view = await raceLinkView(context.env, builder.db, registration, elements);
    const saved = await saveRaceLinks(context.env, builder.db, registration, elements, raceLinksFromPost(posted.values, registration, view));
    return saved.ok ? redirect(withNotice(`/registration/${registration.id}/admin/settings`, "saved")) : refuse(posted, saved.errors, 409);
  }
  if (posted.intent === "cancel-policy") {
    const parsed = cancelPolicySchema(await clubZone(builder.db, registration.clubId)).safeParse(posted.values);
    if (!parsed.success) return refuse(posted, fieldErrorsOf(parsed.error.issues));
    const transfer = parseTransferFee(posted.values.transfer_fee ?? "");
    if (!transfer.ok) return refuse(posted, { transfer_fee: transfer.error });
    const { cancel_refund_percent, cancel_fee, cancel_deadline } = parsed.data;
    await setCancelPolicy(builder.db, registration.id, { refundPercent: cancel_refund_percent, fee: cancel_fee, deadline: cancel_deadline });
    await setTransferFee(builder.db, registration.id, transfer.value);
    return redirect(withNotice(`/registration/${registration.id}/admin/settings`, "saved"));
  }
  if (posted.intent === "waitlist") {
    const hours = parseOfferHours(posted.values.waitlist_offer_hours ?? "");
    if (!hours.ok) return refuse(posted, { waitlist_offer_hours: hours.error });
    await setWaitlistHours(builder.db, registration.id, hours.value);
    context.ctx.waitUntil(
      offerFreedPlaces(context.env, builder.db, registration.id, context.now).catch((e: unknown) => console.error("Waitlist sweep failed", e)),
    );
    return redirect(withNotice(`/registration/${registration.id}/admin/settings`, "saved"));
  }
  if (posted.intent === "resync") {
    const synced = await syncRegistrationRacers(context.env, builder.db, registration.id, null);
    return synced.ok ? redirect(withNotice(`/registration/${registration.id}/admin/settings`, "synced")) : refuse(posted, { form: synced.error }, 409);
  }
  if (posted.intent !== "save") return unknownIntent(posted);
  const parsed = parseSettings(posted.values, await clubZone(builder.db, registration.clubId));
  if (!parsed.ok) return refuse(posted, parsed.errors);
  const nameErrors = nameFieldErrors(parsed.value, await listElements(builder.db, registration.id));
  if (Object.keys(nameErrors).length > 0) return refuse(posted, nameErrors);
  const result = await changeRegistration(builder, registration, parsed.value);
  return result.ok ? redirect(withNotice(`/registration/${registration.id}/admin/settings`, "saved")) : refuse(posted, result.errors, 409);
}

const CHANGE_KINDS: Record<string, string> = {
  cancel: "Cancelled a person",
  edit: "Changed details",
  transfer: "Transferred an entry",
  resend: "Sent the receipt again",
  relink: "Sent a new receipt link",
};

export default function RegistrationSettings() {
  const data = useLoaderData<typeof loader>();
  const { errors, values: typed } = useReplyFor("save");
  const raceReply = useReplyFor("race");
  const resyncReply = useReplyFor("resync");
  const policyReply = useReplyFor("cancel-policy");
  const waitlistReply = useReplyFor("waitlist");
  const p = (name: string) => (policyReply.values ? (policyReply.values[name] ?? "") : (data.values[name] ?? ""));
  // A refused form shows what was sent (an unchecked box sends nothing); otherwise what is stored.
  const v = (name: string) => (typed ? (typed[name] ?? "") : (data.values[name] ?? ""));
  const zoneHint = `In ${data.zone.replaceAll("_", " ")} time.`;
  return (
    <section aria-labelledby="settings-heading">
      <h2 id="settings-heading">Settings</h2>
      <SetupForm intent="save" label="Save settings" busyLabel="Saving…" errors={errors}>
        <TextField name="name" label="Name" required maxLength={200} defaultValue={v("name")} error={errors.name} />
        <fieldset className="setup-group">
          <legend>When registration is open</legend>
          <TextField
            name="open_time"
            type="datetime-local"
            label="Opens"
            hint={`${zoneHint} Leave empty to open as soon as the form is approved.`}
            defaultValue={v("open_time")}
            error={errors.open_time}
          />
          <TextField
            name="close_time"
            type="datetime-local"
            label="Closes"
            hint={`${zoneHint} Leave empty to never close.`}
            defaultValue={v("close_time")}
            error={errors.close_time}
          />
        </fieldset>
        <fieldset className="setup-group">
          <legend>Price tiers</legend>
          <p className="hint">Fields and options can have three prices. Tier 1 applies until the first rise, tier 2 until the second, then tier 3.</p>
          <TextField
            name="raise_price_1_time"
            type="datetime-local"
            label="Prices rise to tier 2 at"
            hint={zoneHint}
            defaultValue={v("raise_price_1_time")}
            error={errors.raise_price_1_time}
          />
          <TextField
            name="raise_price_2_time"
            type="datetime-local"
            label="Prices rise to tier 3 at"
            hint={zoneHint}
            defaultValue={v("raise_price_2_time")}
            error={errors.raise_price_2_time}
          />
        </fieldset>
        <TextField
          name="gst_rate"
          label="GST rate (%)"
          inputMode="decimal"
          hint="Applied to taxable fields, from 0 to 100."
          defaultValue={v("gst_rate")}
          error={errors.gst_rate}
        />
        <CheckboxField
          name="is_bilingual"
          label="Bilingual form (English and French)"
          hint="Fields then get separate English and French captions."
          defaultChecked={v("is_bilingual") === "on" || v("is_bilingual") === "true"}
        />
        <fieldset className="setup-group">
          <legend>People's names</legend>
          <p className="hint">Which fields name a person in carts, receipts and reports. Left unset, fields captioned "First name" and "Last name" are used.</p>
          <SelectField
            name="first_name_field_id"
            label="First name field"
            choices={[{ value: "", label: "Found by caption" }, ...data.textFields]}
            defaultValue={v("first_name_field_id")}
            error={errors.first_name_field_id}
          />
          <SelectField
            name="last_name_field_id"
            label="Last name field"
            choices={[{ value: "", label: "Found by caption" }, ...data.textFields]}
            defaultValue={v("last_name_field_id")}
            error={errors.last_name_field_id}
          />
        </fieldset>
        <fieldset className="setup-group">
          <legend>What registrants are called</legend>
          <p className="hint">Used on the form, the cart and the receipt, as in "Add another racer". Left empty: person and people.</p>
          <TextField
            name="people_label_singular"
            label="One registrant"
            placeholder="person"
            maxLength={PEOPLE_LABEL_MAX}
            defaultValue={v("people_label_singular")}
            error={errors.people_label_singular}
          />
          <TextField
            name="people_label_plural"
            label="Several registrants"
            placeholder="people"
            maxLength={PEOPLE_LABEL_MAX}
            defaultValue={v("people_label_plural")}
            error={errors.people_label_plural}
          />
          {data.isBilingual ? (
            <>
              <TextField
                name="people_label_singular_fr"
                label="One registrant, in French"
                placeholder="personne"
                maxLength={PEOPLE_LABEL_MAX}
                defaultValue={v("people_label_singular_fr")}
                error={errors.people_label_singular_fr}
              />
              <TextField
                name="people_label_plural_fr"
                label="Several registrants, in French"
                placeholder="personnes"
                maxLength={PEOPLE_LABEL_MAX}
                defaultValue={v("people_label_plural_fr")}
                error={errors.people_label_plural_fr}
              />
            </>
          ) : (
            <>
              <input type="hidden" name="people_label_singular_fr" value={v("people_label_singular_fr")} />
              <input type="hidden" name="people_label_plural_fr" value={v("people_label_plural_fr")} />
            </>
          )}
        </fieldset>
        <TextField
          name="tags"
          label="Tags"
          hint="Separated by commas, such as: loppet, 2027, youth. Used to find and group forms."
          defaultValue={v("tags")}
          error={errors.tags}
          maxLength={2000}
        />
        <TextField
          name="age_calc_date"
          label="Age calculation date"
          placeholder="YYYY-MM-DD"
          hint="Default: 31 December of the closing year"
          defaultValue={v("age_calc_date")}
          error={errors.age_calc_date}
        />
      </SetupForm>
      <h3 id="race-heading">Racers from this form</h3>
      <p className="hint">
        Each person of a completed registration is entered in the race as a racer, with the next free bib, and leaves it when their registration is removed.
        Choose the race, then its course and start group; a person whose option has its own race is entered there instead, and moves when they change it.
      </p>
      <RaceLinksPanel data={data.race} errors={raceReply.errors} typed={raceReply.values} />
      <h3 id="cancel-heading">Changes by registrants</h3>
      <p className="hint">
        The receipt link lets a registrant correct a person&apos;s details until the form closes (never fields you lock), choose another priced or limited
        option (paying the difference by card, or refunded it under this policy), cancel a person, refunded through the way they paid, and, if you allow it,
        transfer an entry to someone else. Leave the percent empty to keep cancellations with you.
      </p>
      <SetupForm intent="cancel-policy" label="Save cancellation policy" busyLabel="Saving…" errors={policyReply.errors}>
        <TextField
          name="cancel_refund_percent"
          label="Refund (percent of what the person paid)"
          inputMode="numeric"
          defaultValue={p("cancel_refund_percent")}
          error={policyReply.errors.cancel_refund_percent}
        />
        <TextField
          name="cancel_fee"
          label="Cancellation fee"
          hint="Kept from each refund, such as 5.00."
          defaultValue={p("cancel_fee")}
          error={policyReply.errors.cancel_fee}
        />
        <TextField
          name="cancel_deadline"
          type="datetime-local"
          label="Cancellations close"
          hint={`In ${data.zone.replaceAll("_", " ")} time. Leave empty to allow them until the form closes.`}
          defaultValue={p("cancel_deadline")}
          error={policyReply.errors.cancel_deadline}
        />
        <TextField
          name="transfer_fee"
          label="Transfer fee"
          hint="A fee such as 10.00 (paid by card when transferring, or owed to the club if it takes no cards), or 0 for free transfers. Leave empty to keep transfers with you."
          defaultValue={p("transfer_fee")}
          error={policyReply.errors.transfer_fee}
        />
      </SetupForm>
      <h3 id="waitlist-heading">Waitlist</h3>
      <p className="hint">
        When an option or a field with a limit is full, registrants can join a waitlist. A place that frees up is held for the next person for the time set
        here, and they are emailed a link to take it.
      </p>
      <SetupForm intent="waitlist" label="Save waitlist" busyLabel="Saving…" errors={waitlistReply.errors}>
        <TextField
          name="waitlist_offer_hours"
          label="Hold a freed place for (hours)"
          inputMode="numeric"
          hint="Leave empty for no waitlist. At most 336 (two weeks)."
          defaultValue={waitlistReply.values ? (waitlistReply.values.waitlist_offer_hours ?? "") : (data.values.waitlist_offer_hours ?? "")}
          error={waitlistReply.errors.waitlist_offer_hours}
        />
      </SetupForm>
      {data.changes.length > 0 ? (
        <>
          <h3 id="changes-heading">Changes after checkout</h3>
          <table className="data-table" aria-labelledby="changes-heading">
            <thead>
              <tr>
                <th scope="col">When (UTC)</th>
                <th scope="col">Change</th>
                <th scope="col">Who</th>
                <th scope="col">By</th>
                <th scope="col" className="num">
                  Refunded
                </th>
              </tr>
            </thead>
            <tbody>
              {data.changes.map((c) => (
                <tr key={c.id}>
                  <td>{c.at}</td>
                  <td>{CHANGE_KINDS[c.kind] ?? c.kind}</td>
                  <td>{c.detail}</td>
                  <td>{c.actor === "registrant" ? "The registrant" : c.actor}</td>
                  <td className="num">{c.amount}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
      {data.linked ? (
        <SetupForm intent="resync" label="Re-sync racers" busyLabel="Syncing…" errors={resyncReply.errors}>
          <p className="hint">Enters anyone missing, updates names and details, and takes out racers whose registration was removed.</p>
        </SetupForm>
      ) : null}
    </section>
  );
}

export function ErrorBoundary() {
  return <ErrorPage {...REGISTRATION_ADMIN_ERRORS} />;
}
