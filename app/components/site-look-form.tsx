import { useState } from "react";
import { Field, SetupForm, TextField, useReplyFor } from "./form-kit";

export interface SiteLook {
  mayEdit: boolean;
  name: string;
  tagline: string;
  hostname: string;
  colours: { primary: string; accent: string; background: string; text: string };
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
        <div
          className="site-look-preview"
          aria-label="Preview"
          style={{ background: colours.background, color: colours.text, borderTop: `0.4rem solid ${colours.primary}` }}
        >
          <strong>{name || "Site name"}</strong>
          <p>
            Results, registration and news, as your visitors will read them. <span style={{ color: colours.primary, textDecoration: "underline" }}>A link</span>{" "}
            <span style={{ background: colours.accent, padding: "0 0.3rem" }}>a highlight</span>
          </p>
        </div>
      </SetupForm>
    </section>
  );
}

function pick(values: Record<string, string> | null): Partial<SiteLook["colours"]> {
  if (!values) return {};
  return Object.fromEntries(COLOURS.flatMap((c) => (values[c.key] ? [[c.key, values[c.key]]] : [])));
}
