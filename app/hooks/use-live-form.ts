/**
 * Keeps a registration form's shown fields and price in step with the answers as they are typed: the
 * same core/forms parsing and core/registration pricing the server runs, so what the page shows is what
 * the cart will cost. Before hydration the server's rendering stands.
 */
import { useCallback, useEffect, useState, type RefObject } from "react";
import type { FormElement, StoredValue, Tier } from "../../core/forms/model";
import { conditionChecker, isAccessible } from "../../core/forms/conditions";
import { parseIndividual } from "../../core/forms/validate";
import { priceFormCart, type FormCartIndividual, type FormCartPricing } from "../../core/registration/price-form";

export interface LiveFormInput {
  elements: FormElement[];
  tier: Tier;
  gstRatePercent: number;
  clubTakesCards: boolean;
  cartValues: Record<string, StoredValue>;
  /** Earlier uses of the cart's codes, as the server counts them. */
  discountUses: Record<string, number>;
  others: FormCartIndividual[];
  personId: string;
  isNew: boolean;
  isAdmin: boolean;
  isKiosk: boolean;
}

export interface LiveForm {
  shown: ReadonlySet<string>;
  price: FormCartPricing;
  personTotal: number;
}

function rawOf(form: HTMLFormElement): Record<string, string | string[]> {
  const data = new FormData(form);
  const raw: Record<string, string | string[]> = {};
  for (const key of new Set(data.keys())) {
    const all = data.getAll(key).filter((v): v is string => typeof v === "string");
    raw[key] = all.length === 1 ? all[0]! : all;
  }
  return raw;
}

/** The shown fields and price for answers as they are typed (parsed as the server will parse them). */
export function computeLiveForm(input: LiveFormInput, raw: Record<string, string | string[]>): LiveForm {
  const parsed = parseIndividual(input.elements, raw, { lang: "en", tier: input.tier, isAdmin: input.isAdmin, isKiosk: input.isKiosk });
  // A field still being typed is simply not priced yet; its error shows when the form is sent.
  return liveFromValues(input, parsed.values);
}

/** The shown fields and price for answers already parsed (a saved person). */
export function liveFromValues(input: LiveFormInput, values: Record<string, StoredValue>): LiveForm {
  const viewer = { isAdmin: input.isAdmin, isKiosk: input.isKiosk };
  const isShown = conditionChecker({ elements: input.elements, values });
  const shown = new Set(input.elements.filter((e) => isAccessible(e, viewer) && isShown(e)).map((e) => e.id));
  const person: FormCartIndividual = { id: input.personId, isRemoved: false, isComplete: true, isNew: input.isNew, values };
  const price = priceFormCart({
    elements: input.elements,
    tier: input.tier,
    gstRatePercent: input.gstRatePercent,
    clubTakesCards: input.clubTakesCards,
    isRemoved: false,
    cartValues: input.cartValues,
    individuals: [...input.others, person],
    discountUses: input.discountUses,
  });
  return { shown, price, personTotal: price.individualTotals[input.personId] ?? 0 };
}

export function useLiveForm(formRef: RefObject<HTMLFormElement | null>, input: LiveFormInput, initial: LiveForm): LiveForm {
  const [live, setLive] = useState(initial);
  const update = useCallback(() => {
    if (formRef.current) setLive(computeLiveForm(input, rawOf(formRef.current)));
  }, [formRef, input]);
  useEffect(() => {
    const form = formRef.current;
    if (!form) return;
    update();
    form.addEventListener("input", update);
    form.addEventListener("change", update);
    return () => {
      form.removeEventListener("input", update);
      form.removeEventListener("change", update);
    };
  }, [formRef, update]);
  return live;
}
