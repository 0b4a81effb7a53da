/** The fields only the application pages (/manage/apps) have: name and description, the redirect URIs and the scope checkboxes. */
import { boxStyle, choiceStyle, Field, groupStyle } from "./form-kit";

/** The redirect URIs, one per line, matched exactly when an app asks for a code. */
export function RedirectUrisField({ max, defaultValue, error }: { max: number; defaultValue?: string; error?: string }) {
  return (
    <Field
      id="redirect_uris"
      label="Redirect URIs"
      hint={`One per line, at most ${max}. Matched exactly; https only, except http://127.0.0.1 and http://localhost.`}
      error={error}
    >
      {(describedBy) => (
        <textarea
          id="redirect_uris"
          name="redirect_uris"
          rows={3}
          defaultValue={defaultValue}
          placeholder="https://app.example/callback"
          required
          spellCheck={false}
          autoCapitalize="none"
          style={boxStyle}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
        />
      )}
    </Field>
  );
}

/** The scopes an app may ask for, as checkboxes, with the error for the group. */
export function ScopeChoices({ scopes, chosen, error }: { scopes: readonly string[]; chosen: readonly string[]; error?: string }) {
  return (
    <fieldset style={groupStyle} aria-describedby={error ? "scopes-error" : undefined}>
      <legend style={{ fontWeight: 600 }}>Scopes the app may ask for</legend>
      <div style={{ display: "grid", gap: "0.25rem", gridTemplateColumns: "repeat(auto-fill, minmax(10rem, 1fr))" }}>
        {scopes.map((scope) => (
          <label key={scope} style={choiceStyle}>
            <input type="checkbox" name="scopes" value={scope} defaultChecked={chosen.includes(scope)} /> {scope}
          </label>
        ))}
      </div>
      {error ? (
        <span id="scopes-error" className="form-error">
          {error}
        </span>
      ) : null}
    </fieldset>
  );
}

/** The app's name and the description shown on the consent page, as the create and the edit form ask for them. */
export function AppNameFields({
  name,
  description,
  limits,
  errors,
}: {
  name?: string;
  description?: string;
  limits: { name: number; description: number };
  errors: { name?: string; description?: string };
}) {
  return (
    <>
      <Field id="name" label="Name" error={errors.name}>
        {(describedBy) => (
          <input
            id="name"
            name="name"
            defaultValue={name}
            maxLength={limits.name}
            required
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={describedBy}
          />
        )}
      </Field>
      <Field id="description" label="Description" hint="Shown to people when the app asks for their permission." error={errors.description}>
        {(describedBy) => (
          <textarea
            id="description"
            name="description"
            rows={3}
            defaultValue={description}
            maxLength={limits.description}
            style={boxStyle}
            aria-invalid={errors.description ? true : undefined}
            aria-describedby={describedBy}
          />
        )}
      </Field>
    </>
  );
}
