/**
 * One registration form element as a labelled input, named by the element's id so the posted form is what
 * core/forms parses. Display-only elements (heading, text block, separator, banner) render as content.
 */
import { labelIn, type Lang } from "../../core/forms/bilingual";
import { waiverTextOf } from "../../core/forms/booleans";
import { COUNTRIES } from "../../core/forms/countries";
import { blockTextOf } from "../../core/forms/display-only";
import { EMAIL_OPTOUT } from "../../core/forms/email";
import type { FormElement, FormOption, StoredValue } from "../../core/forms/model";
import { isOptionOffered, optionLabel, type OptionChooser } from "../../core/forms/options";
import { PROVINCES } from "../../core/forms/provinces";
import { formatMoneyIn } from "../../core/registration/receipt-lines";
import { boxStyle, choiceStyle, groupStyle } from "./form-kit";

const WORDS = {
  en: {
    choose: "Choose…",
    yes: "Yes",
    no: "No",
    agree: "I have read and agree",
    colon: ": ",
    optout: "Do not send me news and offers",
    female: "Female",
    male: "Male",
    other: "Other",
    required: "required",
  },
  fr: {
    choose: "Choisir…",
    yes: "Oui",
    no: "Non",
    agree: "J’ai lu et j’accepte",
    colon: " : ",
    optout: "Ne pas m’envoyer de nouvelles ni d’offres",
    female: "Femme",
    male: "Homme",
    other: "Autre",
    required: "obligatoire",
  },
} as const;

export interface FieldProps {
  element: FormElement;
  lang: Lang;
  /** What the person answered before (saved or just posted). */
  value: StoredValue | undefined;
  /** The text posted, shown back as typed when it was refused. */
  posted?: string | string[];
  error?: string;
  required: boolean;
  chooser: OptionChooser;
  /** Price of a priced element or option at the tier in force, for its label. */
  priceOf: (item: Pick<FormOption, "price_1" | "price_2" | "price_3">) => number;
}

/** A stored value as the text an input shows. */
export function inputTextOf(element: FormElement, value: StoredValue | undefined): string {
  const v = value?.v;
  if (v === null || v === undefined) return "";
  switch (element.type) {
    case "donation":
      return typeof v === "number" && v > 0 ? (v / 100).toFixed(2) : "";
    case "email":
      return (v as { addresses: string }).addresses;
    case "membership":
      return (v as { option: string }).option;
    case "phone":
      return typeof v === "string" && v.length === 10 ? `${v.slice(0, 3)}-${v.slice(3, 6)}-${v.slice(6)}` : String(v);
    default:
      return typeof v === "object" ? "" : String(v);
  }
}

export function RegistrationField(props: FieldProps) {
  const { element, lang } = props;
  const label = labelIn(element.caption, lang);
  switch (element.type) {
    case "heading":
      return <h2 className="form-heading">{label || blockTextOf(element, lang)}</h2>;
    case "textblock":
      return <p className="form-text">{blockTextOf(element, lang) || label}</p>;
    case "separator":
      return <hr />;
    case "banner":
      return element.config.text ? <img className="form-banner" src={element.config.text} alt={label} /> : null;
    default:
      return <InputField {...props} label={label} />;
  }
}

function InputField(props: FieldProps & { label: string }) {
  const { element, lang, error, required, label } = props;
  const id = `f-${element.id}`;
  const describedBy = error ? `${id}-error` : undefined;
  const words = WORDS[lang];
  const price = props.priceOf(element);
  const caption = (
    <>
      {label}
      {required ? <span aria-hidden="true"> *</span> : null}
      {required ? <span className="visually-hidden"> ({words.required})</span> : null}
      {price > 0 ? <span className="field-price"> {formatMoneyIn(price, lang)}</span> : null}
    </>
  );
  const text = typeof props.posted === "string" ? props.posted : inputTextOf(element, props.value);
  const common = { id, name: element.id, "aria-invalid": error ? true : undefined, "aria-describedby": describedBy };
  const errorLine = error ? (
    <span id={`${id}-error`} className="form-error">
      {error}
    </span>
  ) : null;

  if (element.type === "option" && element.display_type === "radio") return <Choices {...props} caption={caption} multiple={false} errorLine={errorLine} />;
  if (element.type === "multioption") return <Choices {...props} caption={caption} multiple errorLine={errorLine} />;
  if (element.type === "yesno") {
    return (
      <fieldset style={groupStyle} aria-describedby={describedBy} data-field={element.id}>
        <legend>{caption}</legend>
        {(["yes", "no"] as const).map((answer) => (
          <label key={answer} style={choiceStyle}>
            <input type="radio" name={element.id} value={answer} defaultChecked={text === answer} required={required} /> {words[answer]}
          </label>
        ))}
        {errorLine}
      </fieldset>
    );
  }
  if (element.type === "checkbox" || element.type === "waiver") {
    const checked = props.value?.v === true || props.posted === "on";
    return (
      <div className="field" data-field={element.id}>
        {element.type === "waiver" ? <div className="waiver-text">{waiverTextOf(element, lang)}</div> : null}
        <label style={choiceStyle}>
          <input type="checkbox" {...common} defaultChecked={checked} required={required} />{" "}
          {element.type === "waiver" ? `${words.agree}${words.colon}${label}` : caption}
        </label>
        {errorLine}
      </div>
    );
  }
  return (
    <div className="field" data-field={element.id}>
      <label htmlFor={id}>{caption}</label>
      {control()}
      {element.type === "email" && !element.config.is_disable_optin ? (
        <label style={choiceStyle}>
          <input type="checkbox" name={element.id} value={EMAIL_OPTOUT} defaultChecked={(props.value?.v as { optin?: boolean } | undefined)?.optin === false} />{" "}
          {words.optout}
        </label>
      ) : null}
      {errorLine}
    </div>
  );

  function control() {
    switch (element.type) {
      case "option":
      case "membership":
        return (
          <select {...common} style={boxStyle} defaultValue={text} required={required}>
            <option value="">{words.choose}</option>
            {element.options_list.map((option) => (
              <OptionItem key={option.id} option={option} {...props} />
            ))}
          </select>
        );
      case "country":
        return (
          <select {...common} style={boxStyle} defaultValue={text} required={required} autoComplete="country">
            <option value="">{words.choose}</option>
            {COUNTRIES.map((c) => (
              <option key={c.alpha2} value={c.alpha2}>
                {c.name}
              </option>
            ))}
          </select>
        );
      case "province":
        return (
          <select {...common} style={boxStyle} defaultValue={text} required={required} autoComplete="address-level1">
            <option value="">{words.choose}</option>
            {PROVINCES.map((p) => (
              <option key={p.code} value={p.code}>
                {p.name}
              </option>
            ))}
          </select>
        );
      case "gender":
        return (
          <select {...common} style={boxStyle} defaultValue={text} required={required} autoComplete="sex">
            <option value="">{words.choose}</option>
            <option value="F">{words.female}</option>
            <option value="M">{words.male}</option>
            <option value="O">{words.other}</option>
          </select>
        );
      case "date":
      case "dob":
        return <input type="date" {...common} defaultValue={text} required={required} autoComplete={element.type === "dob" ? "bday" : undefined} />;
      case "email":
        return <input type="text" inputMode="email" {...common} defaultValue={text} required={required} autoComplete="email" />;
      case "phone":
        return <input type="tel" {...common} defaultValue={text} required={required} autoComplete="tel" placeholder="123-456-7890" />;
      case "number":
        return <input type="text" inputMode="decimal" {...common} defaultValue={text} required={required} />;
      case "donation":
        return <input type="text" inputMode="decimal" {...common} defaultValue={text} placeholder="0.00" />;
      case "image":
        return <input type="file" accept="image/*" {...common} required={required && !props.value} />;
      default:
        return <input type="text" {...common} defaultValue={text} required={required} autoComplete={autoCompleteOf(label)} />;
    }
  }
}

function OptionItem({ option, lang, chooser, priceOf }: { option: FormOption } & Pick<FieldProps, "lang" | "chooser" | "priceOf">) {
  const price = priceOf(option);
  const offered = isOptionOffered(option, chooser);
  if (option.is_hidden && !chooser.isAdmin) return null;
  return (
    <option value={option.id} disabled={!offered}>
      {price > 0 ? `${optionLabel(option, lang)} — ${formatMoneyIn(price, lang)}` : optionLabel(option, lang)}
    </option>
  );
}

function Choices(props: FieldProps & { caption: React.ReactNode; multiple: boolean; errorLine: React.ReactNode }) {
  const { element, lang, chooser, priceOf, multiple } = props;
  const chosen = new Set(
    Array.isArray(props.posted)
      ? props.posted
      : typeof props.posted === "string"
        ? [props.posted]
        : Array.isArray(props.value?.v)
          ? (props.value.v as string[])
          : props.value
            ? [String(props.value.v)]
            : [],
  );
  return (
    <fieldset style={groupStyle} data-field={element.id} aria-describedby={props.error ? `f-${element.id}-error` : undefined}>
      <legend>{props.caption}</legend>
      {element.options_list
        .filter((option) => !option.is_hidden || chooser.isAdmin)
        .map((option) => {
          const price = priceOf(option);
          return (
            <label key={option.id} style={choiceStyle}>
              <input
                type={multiple ? "checkbox" : "radio"}
                name={element.id}
                value={option.id}
                defaultChecked={chosen.has(option.id)}
                disabled={!isOptionOffered(option, chooser)}
              />
              {optionLabel(option, lang)}
              {price > 0 ? <span className="field-price"> {formatMoneyIn(price, lang)}</span> : null}
            </label>
          );
        })}
      {props.errorLine}
    </fieldset>
  );
}

/** Browsers fill names and addresses when the input says what it holds. */
function autoCompleteOf(label: string): string | undefined {
  const text = label.toLowerCase();
  if (/first name|prénom/.test(text)) return "given-name";
  if (/last name|nom de famille/.test(text)) return "family-name";
  if (/postal|zip/.test(text)) return "postal-code";
  if (/address|adresse/.test(text)) return "street-address";
  if (/city|ville/.test(text)) return "address-level2";
  return undefined;
}
