import { Form, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { FormMessage } from "./auth-card";
import { FONT_CHOICES, FONT_KEYS, fontStackOf } from "../../core/sites/fonts";
import { CheckboxField, Field, SetupForm, TextField, useReplyFor } from "./form-kit";

export interface SiteLook {
  mayEdit: boolean;
  name: string;
  tagline: string;
  hostname: string;
  colours: { primary: string; accent: string; background: string; text: string };
  logoUrl: string | null;
  font: string;
  french: boolean;
  mtime: number;
}

const COLOURS = [
  { key: "primary", label: "Primary colour", hint: "Links, buttons and the header" },
  { key: "accent", label: "Accent colour", hint: "Highlights" },
  { key: "background", label: "Background colour" },
  { key: "text", label: "Text colour" },
] as const;

/** The site's name, tagline and colours, with a preview that follows the colours as they are picked. */
export function SiteLookForm({ look }: { look: SiteLook }) {
  const reply = useReplyFor("look");
  const typed = reply.values;
  const [colours, setColours] = useState(() => ({ ...look.colours, ...pick(typed) }));
  const [name, setName] = useState(typed?.name ?? look.name);
  const [font, setFont] = useState(typed?.font ?? look.font);
  if (!look.mayEdit) {
    return (
      <section aria-labelledby="look-heading">
        <h2 id="look-heading">Look</h2>
        <p className="hint">Changing the site's look needs the Sites area on your Site Administrator role.</p>
      </section>
    );
  }
  return (
    <section aria-labelledby="look-heading">
      <h2 id="look-heading">Look</h2>
      <p className="hint">
        How {look.hostname} looks to its visitors. Colours must stay readable: text needs a contrast of 4.5:1 with the background, the primary colour 3:1.
      </p>
      <SetupForm intent="look" label="Save the look" busyLabel="Saving…" errors={reply.errors}>
        <input type="hidden" name="mtime" value={look.mtime} />
        <Field id="name" label="Site name" error={reply.errors.name}>
          {(describedBy) => (
            <input id="name" name="name" required maxLength={120} value={name} onChange={(e) => setName(e.target.value)} aria-describedby={describedBy} />
          )}
        </Field>
        <TextField
          name="tagline"
          label="Tagline"
          hint="A line under the name (optional)"
          maxLength={200}
          defaultValue={typed?.tagline ?? look.tagline}
          error={reply.errors.tagline}
        />
        {COLOURS.map((c) => (
          <Field key={c.key} id={`colour-${c.key}`} label={c.label} hint={"hint" in c ? c.hint : undefined} error={reply.errors[c.key]}>
            {(describedBy) => (
              <span className="colour-pick">
                <input
                  id={`colour-${c.key}`}
                  name={c.key}
                  type="color"
                  value={colours[c.key]}
                  onChange={(e) => setColours((now) => ({ ...now, [c.key]: e.target.value }))}
                  aria-invalid={reply.errors[c.key] ? true : undefined}
                  aria-describedby={describedBy}
                />
                <code>{colours[c.key]}</code>
              </span>
            )}
          </Field>
        ))}
        <Field id="font" label="Font" hint="Fonts already on your visitors' devices: nothing is downloaded" error={reply.errors.font}>
          {(describedBy) => (
            <select id="font" name="font" value={font} onChange={(e) => setFont(e.target.value)} aria-describedby={describedBy}>
              {FONT_KEYS.map((key) => (
                <option key={key} value={key}>
                  {FONT_CHOICES[key].label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <CheckboxField
          name="french"
          label="Offer the site in French too"
          hint="Visitors get an English / Français switch; menu labels and pages show their French version where you wrote one"
          defaultChecked={typed ? typed.french === "on" : look.french}
        />
        <div
          className="site-look-preview"
          aria-label="Preview"
          style={{ background: colours.background, color: colours.text, borderTop: `0.4rem solid ${colours.primary}`, fontFamily: fontStackOf(font) }}
        >
          <strong>{name || "Site name"}</strong>
          <p>
            Results, registration and news, as your visitors will read them. <span style={{ color: colours.primary, textDecoration: "underline" }}>A link</span>{" "}
            <span style={{ background: colours.accent, padding: "0 0.3rem" }}>a highlight</span>
          </p>
        </div>
      </SetupForm>
      <LogoForm logoUrl={look.logoUrl} />
    </section>
  );
}

/** The logo: a PNG, JPEG, WebP or GIF of at most 512 KB, shown in the site's header. */
function LogoForm({ logoUrl }: { logoUrl: string | null }) {
  const reply = useReplyFor("logo");
  const busy = useNavigation().formData?.get("intent") === "logo";
  return (
    <Form method="post" encType="multipart/form-data" className="setup-form">
      <h3>Logo</h3>
      <input type="hidden" name="intent" value="logo" />
      {reply.errors.form ? <FormMessage error={reply.errors.form} /> : null}
      {logoUrl ? (
        <img src={logoUrl} alt="The site's logo" width={64} height={64} className="logo-preview" />
      ) : (
        <p className="hint">No logo yet: the header shows the name's first letter.</p>
      )}
      <Field id="logo" label="New logo" hint="PNG, JPEG, WebP or GIF, at most 512 KB; shown at 40 × 40 pixels" error={reply.errors.logo}>
        {(describedBy) => <input id="logo" name="logo" type="file" accept="image/png,image/jpeg,image/webp,image/gif" aria-describedby={describedBy} />}
      </Field>
      <button type="submit" disabled={busy}>
        {busy ? "Uploading…" : "Upload the logo"}
      </button>
      {logoUrl ? (
        <button type="submit" name="remove" value="1" className="secondary" disabled={busy}>
          Remove the logo
        </button>
      ) : null}
    </Form>
  );
}

function pick(values: Record<string, string> | null): Partial<SiteLook["colours"]> {
  if (!values) return {};
  return Object.fromEntries(COLOURS.flatMap((c) => (values[c.key] ? [[c.key, values[c.key]]] : [])));
}
