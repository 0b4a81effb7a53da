/**
 * The zod schemas of a form element, for the builder and the data API to check what they are sent. Kept
 * apart from model.ts so the registration page's browser code, which needs the types and rules but never
 * checks an element, does not carry zod.
 */
import * as z from "zod";
import { CONDITION_OPERATORS, DISCOUNT_TYPES, FIELD_TYPES, FORM_LIMITS, IMAGE_LOGICS, LICENCE_KINDS, MEMBER_CLASSES, type FormElement } from "./model";

const cents = z.number().int().min(0).max(FORM_LIMITS.maxCents);
const optionalCents = cents.nullable().optional();
const id = z.string().min(1).max(FORM_LIMITS.id);
const label = z.string().max(FORM_LIMITS.caption);
const count = z.number().int().min(0).max(1_000_000);

export const discountEntrySchema = z.strictObject({
  code: z.string().trim().min(1).max(FORM_LIMITS.code).regex(/^\S+$/, "A code cannot contain spaces"),
  type: z.enum(DISCOUNT_TYPES),
  amt: z.number().min(0).max(FORM_LIMITS.maxCents),
  elts_list: z.array(id).max(FORM_LIMITS.options),
  description: label.optional(),
  qty: count.nullable().optional(),
});

export const formOptionSchema = z.strictObject({
  id,
  display: label,
  display_fr: label.optional(),
  value: label.optional(),
  limit: count.nullable().optional(),
  price_1: optionalCents,
  price_2: optionalCents,
  price_3: optionalCents,
  is_fee: z.boolean().optional(),
  min_age: z.number().int().min(0).max(150).nullable().optional(),
  max_age: z.number().int().min(0).max(150).nullable().optional(),
  is_male: z.boolean().optional(),
  is_female: z.boolean().optional(),
  is_other: z.boolean().optional(),
  is_hidden: z.boolean().optional(),
  member_class: z.enum(MEMBER_CLASSES).optional(),
});

export const elementConfigSchema = z.strictObject({
  discounts_list: z.array(discountEntrySchema).max(FORM_LIMITS.discounts).optional(),
  is_disable_optin: z.boolean().optional(),
  is_show_unspecified: z.boolean().optional(),
  min_fee: optionalCents,
  is_insidetrack: z.boolean().optional(),
  waiver_text: z.string().max(FORM_LIMITS.text).nullable().optional(),
  licence_kind: z.enum(LICENCE_KINDS).optional(),
  logic: z.enum(IMAGE_LOGICS).optional(),
  is_fees_extra: z.boolean().optional(),
  family_cap: optionalCents,
  division_id: z.uuid().nullable().optional(),
  validation_system_id: z.uuid("Choose a validation system of this club").nullable().optional(),
  min: z.number().nullable().optional(),
  max: z.number().nullable().optional(),
  text: z.string().max(FORM_LIMITS.text).nullable().optional(),
});

/** A field's logic key: a stable name for exports and apps, such as first_name or bib. */
export const logicKeySchema = z
  .string()
  .max(FORM_LIMITS.id, `At most ${FORM_LIMITS.id} characters`)
  .regex(/^[a-z][a-z0-9_]*$/, "Use lowercase letters, digits and underscores, starting with a letter");

export const formElementSchema = z
  .strictObject({
    id,
    type: z.enum(FIELD_TYPES),
    caption: label,
    title: label.nullable().optional(),
    column_header: label.nullable().optional(),
    price_1: optionalCents,
    price_2: optionalCents,
    price_3: optionalCents,
    is_taxable: z.boolean(),
    is_mandatory: z.boolean(),
    is_admin_only: z.boolean(),
    is_kiosk_mode: z.boolean(),
    is_admin_mandatory: z.boolean(),
    is_edit_forbidden: z.boolean(),
    condition: z
      .strictObject({ element: id, operator: z.enum(CONDITION_OPERATORS), value: label })
      .nullable()
      .optional(),
    logic_key: logicKeySchema.nullable().optional(),
    ordinal: z.number().int().min(-1_000_000).max(1_000_000),
    quantity_limit: count.nullable().optional(),
    all_discount: z.boolean(),
    member_class: z.enum(MEMBER_CLASSES).nullable().optional(),
    is_fee: z.boolean(),
    options_list: z.array(formOptionSchema).max(FORM_LIMITS.options),
    display_type: z.string().max(FORM_LIMITS.id).nullable().optional(),
    config: elementConfigSchema,
  })
  .superRefine((element, ctx) => {
    // Values refer to options by id and discounts by code, so both must be unique.
    const ids = element.options_list.map((option) => option.id);
    if (new Set(ids).size !== ids.length) ctx.addIssue({ code: "custom", path: ["options_list"], message: "Option ids must be unique" });
    const codes = (element.config.discounts_list ?? []).map((entry) => entry.code.toUpperCase());
    if (new Set(codes).size !== codes.length) ctx.addIssue({ code: "custom", path: ["config", "discounts_list"], message: "Discount codes must be unique" });
    if (element.condition?.element === element.id)
      ctx.addIssue({ code: "custom", path: ["condition", "element"], message: "An element cannot depend on itself" });
    if (element.config.validation_system_id && element.type !== "text" && element.type !== "number")
      ctx.addIssue({ code: "custom", path: ["config", "validation_system_id"], message: "Only a text or number field can use a validation system" });
    const { min, max } = element.config;
    if (min != null && max != null && min > max) ctx.addIssue({ code: "custom", path: ["config", "max"], message: "max must not be below min" });
  });

// Keeps the hand-written FormElement and the schema from drifting apart.
const _schemaMatchesModel: z.ZodType<FormElement> = formElementSchema;
