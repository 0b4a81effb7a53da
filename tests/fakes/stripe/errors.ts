// Stripe API errors as the fake throws them, and their wire shape: `{ "error": { type, code, message, param, decline_code } }`.

export type StripeErrorType = "invalid_request_error" | "card_error" | "idempotency_error" | "api_error";

export interface StripeErrorFields {
  type: StripeErrorType;
  message: string;
  code?: string;
  param?: string;
  decline_code?: string;
}

/** An error answered with Stripe's status and body; handlers throw it and the router turns it into a Response. */
export class FakeStripeError extends Error {
  readonly status: number;
  readonly fields: StripeErrorFields;

  constructor(status: number, fields: StripeErrorFields) {
    super(fields.message);
    this.name = "FakeStripeError";
    this.status = status;
    this.fields = fields;
  }

  /** Stripe keeps no idempotent result when the parameters failed validation, so a corrected retry with the same key runs. */
  get isValidation(): boolean {
    return this.fields.code?.startsWith("parameter_") === true;
  }

  toJSON(): { error: Record<string, string> } {
    const error: Record<string, string> = {};
    if (this.fields.code) error.code = this.fields.code;
    if (this.fields.decline_code) error.decline_code = this.fields.decline_code;
    // Stripe links every coded error to its page in the docs.
    if (this.fields.code) error.doc_url = `https://stripe.com/docs/error-codes/${this.fields.code.replaceAll("_", "-")}`;
    error.message = this.fields.message;
    if (this.fields.param) error.param = this.fields.param;
    error.type = this.fields.type;
    return { error };
  }
}

export function invalidRequest(message: string, param?: string, code?: string): FakeStripeError {
  return new FakeStripeError(400, { type: "invalid_request_error", message, param, code });
}

export function missingParam(param: string): FakeStripeError {
  return invalidRequest(`Missing required param: ${param}.`, param, "parameter_missing");
}

/** Stripe's 404 for an id that does not exist on the account the request was made on. */
export function noSuch(objectName: string, id: string, param: string): FakeStripeError {
  return new FakeStripeError(404, { type: "invalid_request_error", code: "resource_missing", message: `No such ${objectName}: '${id}'`, param });
}
