import { Form, Link, useSearchParams } from "@remix-run/react";
import type { Lang } from "../../core/forms/bilingual";
import { priceAt } from "../../core/forms/field-type";
import { isRequired } from "../../core/forms/conditions";
import type { FormElement, StoredValue, Tier } from "../../core/forms/model";
import { personChooser } from "../../core/registration/person";
import { RECEIPT_WORDS } from "../../core/registration/receipt-lines";
import { CHANGE_WAITLIST_WORDS } from "../../core/registration/change-waitlist";
import { RegistrationField } from "./registration-fields";

export interface PersonChange {
  person: string;
  kind: "edit" | "transfer";
  elements: FormElement[];
  values: Record<string, StoredValue>;
  ageDate: string;
  tier: Tier;
}

/**
 * The receipt page's address with one person's change form open (or, with no person, closed). It keeps the
 * page's own query: the receipt link's token is what opens the receipt on a device without the cart's cookie.
 */
export function changeHref(search: URLSearchParams, person: string | null, kind: "edit" | "transfer" = "edit"): string {
  const params = new URLSearchParams(search);
  for (const name of ["change", "kind", "changed", "changefailed", "cancelled"]) params.delete(name);
  if (person) {
    params.set("change", person);
    params.set("kind", kind);
  }
  return `?${params.toString()}`;
}

/**
 * Changing a paid person's details, or giving the entry to someone else: only the fields a registrant may
 * change (core/registration/person-changes.ts). A paid answer is on the form in their own edit and changes for
 * the difference (decision 0061); in a transfer, what was paid for is not on the form and stays as it is.
 */
export function PersonChangeForm(props: {
  change: PersonChange;
  lang: Lang;
  requestId: string;
  busy: boolean;
  fieldErrors: Record<string, string>;
  personName: string;
  /** What a transfer costs, said before the registrant commits to it. */
  feeQuote: string | null;
  /** A limited choice asked for is full and the form has a waitlist: its words, and the button to join it. */
  waitlist?: string | null;
}) {
  const { change, lang } = props;
  const words = RECEIPT_WORDS[lang];
  const chooser = personChooser(change.elements, change.values, change.ageDate, false);
  const transfer = change.kind === "transfer";
  const [search] = useSearchParams();
  return (
    <section className="confirm-panel" aria-labelledby="change-heading" data-testid="person-change">
      <h3 id="change-heading">{`${transfer ? words.transferPerson : words.editPerson}: ${props.personName}`}</h3>
      <p className="hint">{transfer ? words.transferHint : words.addNote}</p>
      {props.feeQuote ? <p data-testid="transfer-fee">{props.feeQuote}</p> : null}
      <Form method="post" className="registration-form" noValidate>
        <input type="hidden" name="intent" value="change" />
        <input type="hidden" name="person" value={change.person} />
        <input type="hidden" name="kind" value={change.kind} />
        <input type="hidden" name="request_id" value={props.requestId} />
        {change.elements.map((element) => (
          <RegistrationField
            key={element.id}
            element={element}
            lang={lang}
            value={change.values[element.id]}
            error={props.fieldErrors[element.id]}
            required={isRequired(element, { isAdmin: false })}
            chooser={chooser}
            priceOf={(item) => priceAt(item, change.tier)}
          />
        ))}
        {props.waitlist ? (
          <p className="notice" data-testid="change-waitlist">
            {props.waitlist}
          </p>
        ) : null}
        <div className="actions">
          <button type="submit" disabled={props.busy}>
            {transfer ? words.saveTransfer : words.saveChange}
          </button>
          {props.waitlist ? (
            <button type="submit" name="waitlist" value="join" className="secondary" disabled={props.busy}>
              {CHANGE_WAITLIST_WORDS[lang].join}
            </button>
          ) : null}
          <Link to={changeHref(search, null)} className="button secondary">
            {lang === "fr" ? "Annuler" : "Cancel"}
          </Link>
        </div>
      </Form>
    </section>
  );
}
