/** The division page's member forms (decision 0057): a person's details, a membership, and the reminders section. */
import { choicesOf, MEMBER_CLASS_LABELS } from "./form-builder-choices";
import { CheckboxField, SelectField, SetupForm, TextField, type Choice, type FieldErrors } from "./form-kit";

const LANGUAGES = [
  { value: "en", label: "English" },
  { value: "fr", label: "French" },
];

type Values = Readonly<Record<string, unknown>> | null;
const valueOf = (values: Values, key: string) => (typeof values?.[key] === "string" ? (values[key] as string) : undefined);

export function PersonFields({ values, errors }: { values: Values; errors: FieldErrors }) {
  const v = (key: string) => valueOf(values, key);
  return (
    <>
      <TextField name="first_name" label="First name" required maxLength={200} defaultValue={v("first_name")} error={errors.first_name} />
      <TextField name="last_name" label="Last name" required maxLength={200} defaultValue={v("last_name")} error={errors.last_name} />
      <TextField name="birth_date" label="Birth date" type="date" defaultValue={v("birth_date")} error={errors.birth_date} />
      <TextField name="gender" label="Gender" maxLength={200} defaultValue={v("gender")} error={errors.gender} />
      <TextField name="email" label="E-mail" maxLength={320} defaultValue={v("email")} error={errors.email} />
      <SelectField name="lang" label="Language of their mail" choices={LANGUAGES} defaultValue={v("lang") ?? "en"} error={errors.lang} />
    </>
  );
}

export function MembershipFields({
  seasons,
  programs,
  values,
  chosen = [],
  errors,
}: {
  seasons: readonly Choice[];
  programs: readonly string[];
  values: Values;
  chosen?: readonly string[];
  errors: FieldErrors;
}) {
  const v = (key: string) => valueOf(values, key);
  return (
    <>
      <SelectField id="member-season" name="season" label="Season" choices={seasons} defaultValue={v("season")} error={errors.season} />
      <SelectField
        name="member_class"
        label="Member class"
        choices={choicesOf(MEMBER_CLASS_LABELS)}
        defaultValue={v("member_class") ?? "general"}
        error={errors.member_class}
      />
      {programs.length > 0 ? (
        <fieldset className="choice-group">
          <legend>Programs</legend>
          {programs.map((p) => (
            <label key={p} className="choice">
              <input type="checkbox" name="programs" value={p} defaultChecked={chosen.some((c) => c.toLowerCase() === p.toLowerCase())} /> {p}
            </label>
          ))}
          {errors.programs ? <span className="form-error">{errors.programs}</span> : null}
        </fieldset>
      ) : null}
      <TextField name="note" label="Note" maxLength={1000} defaultValue={v("note")} error={errors.note} />
    </>
  );
}

export interface ReminderLineView {
  memberNumber: number;
  name: string;
  email: string;
  season: string;
  state: string;
  at: number;
}

const STATE_WORDS: Record<string, string> = { queued: "Waiting to be sent", sending: "Sending", sent: "Sent", failed: "Could not be delivered" };

export function ReminderSection({
  mayEdit,
  settings,
  reply,
}: {
  mayEdit: boolean;
  settings: { isReminding: boolean; days: number; sent: readonly ReminderLineView[] };
  reply: { errors: FieldErrors; values: Record<string, string> | null };
}) {
  return (
    <section aria-labelledby="reminders-heading">
      <h2 id="reminders-heading">Renewal reminders</h2>
      <p>
        {settings.isReminding
          ? `Members get one reminder mail ${settings.days} days before their membership ends, with a link to renew.`
          : "Reminders are off: members get no mail before their membership ends."}
      </p>
      {mayEdit ? (
        <SetupForm intent="reminders" label="Save the reminders" busyLabel="Saving…" errors={reply.errors}>
          <CheckboxField name="is_reminding" label="Send renewal reminders" defaultChecked={settings.isReminding} />
          <TextField
            name="reminder_days"
            label="Days before the membership ends"
            inputMode="numeric"
            required
            defaultValue={reply.values?.reminder_days ?? String(settings.days)}
            error={reply.errors.reminder_days}
          />
        </SetupForm>
      ) : null}
      {settings.sent.length === 0 ? (
        <p className="empty-state">No reminders sent yet.</p>
      ) : (
        <div className="table-scroll">
          <table className="data-table">
            <caption>Reminded</caption>
            <thead>
              <tr>
                <th scope="col">No.</th>
                <th scope="col">Name</th>
                <th scope="col">E-mail</th>
                <th scope="col">Season</th>
                <th scope="col">State</th>
                <th scope="col">When (UTC)</th>
              </tr>
            </thead>
            <tbody>
              {settings.sent.map((r) => (
                <tr key={`${r.memberNumber}-${r.season}`}>
                  <td>{r.memberNumber}</td>
                  <td>{r.name}</td>
                  <td>{r.email}</td>
                  <td>{r.season}</td>
                  <td>{STATE_WORDS[r.state] ?? r.state}</td>
                  <td>{new Date(r.at).toISOString().slice(0, 16).replace("T", " ")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
