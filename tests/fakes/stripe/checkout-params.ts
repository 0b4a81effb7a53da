// The parameters of POST /v1/checkout/sessions, checked as Stripe checks them, and the session they describe.
import { FakeStripeError, invalidRequest } from "./errors";
import { formatDollars, newId, type CheckoutSession, type LineItem, type Metadata } from "./objects";
import type { Params } from "./params";

const CHECKOUT_SESSION_PARAMS = [
  "mode",
  "line_items",
  "success_url",
  "cancel_url",
  "client_reference_id",
  "customer_email",
  "metadata",
  "payment_intent_data",
  "expires_at",
  "expand",
  "locale",
  "payment_method_types",
  "submit_type",
  "billing_address_collection",
  "customer_creation",
  "ui_mode",
];
const PAYMENT_INTENT_DATA_PARAMS = ["application_fee_amount", "metadata", "description", "receipt_email", "statement_descriptor_suffix"];
const MIN_CHARGE = 50;
const MAX_AMOUNT = 99_999_999;

/** What the fake keeps about a session beside the object: its items, and what its PaymentIntent will carry. */
export interface SessionData {
  lineItems: LineItem[];
  paymentIntent: { applicationFeeAmount: number | null; metadata: Metadata; description: string | null; receiptEmail: string | null };
}

/** A new open session from the request's parameters; `account` is the Stripe-Account it is made on (null = platform). */
export function readCheckoutSession(
  params: Params,
  options: { account: string | null; created: number; baseUrl: string },
): { session: CheckoutSession; data: SessionData; expandPaths: string[] } {
  const { created, baseUrl } = options;
  params.rejectUnknown(CHECKOUT_SESSION_PARAMS);
  const mode = params.oneOf("mode", ["payment", "setup", "subscription"], { required: true });
  if (mode !== "payment") throw invalidRequest("The Stripe fake supports only mode=payment.", "mode");
  const uiMode = params.oneOf("ui_mode", ["hosted", "embedded", "custom"]);
  if (uiMode !== undefined && uiMode !== "hosted") throw invalidRequest("The Stripe fake supports only ui_mode=hosted.", "ui_mode");
  const lineItemParams = params.list("line_items", { required: true });
  const successUrl = params.url("success_url", { required: true });
  const cancelUrl = params.url("cancel_url") ?? null;
  const clientReferenceId = params.string("client_reference_id", { max: 200 }) ?? null;
  const customerEmail = params.string("customer_email", { max: 800 }) ?? null;
  if (customerEmail !== null && !/^[^@\s]+@[^@\s]+$/.test(customerEmail)) {
    throw invalidRequest(`Invalid email address: ${customerEmail}`, "customer_email", "email_invalid");
  }
  const metadata = params.metadata("metadata");
  const expandPaths = params.stringList("expand");
  const locale = params.string("locale") ?? null;
  const paymentMethodTypes = params.stringList("payment_method_types");
  params.string("submit_type");
  params.string("billing_address_collection");
  params.string("customer_creation");

  const lineItems: LineItem[] = lineItemParams.map((item) => {
    item.rejectUnknown(["price", "price_data", "quantity"]);
    const priceId = item.string("price");
    if (priceId !== undefined)
      throw new FakeStripeError(400, {
        type: "invalid_request_error",
        code: "resource_missing",
        message: `No such price: '${priceId}'`,
        param: item.name("price"),
      });
    const priceData = item.child("price_data", { required: true });
    priceData.rejectUnknown(["currency", "unit_amount", "product_data", "product"]);
    const productId = priceData.string("product");
    if (productId !== undefined)
      throw new FakeStripeError(400, {
        type: "invalid_request_error",
        code: "resource_missing",
        message: `No such product: '${productId}'`,
        param: priceData.name("product"),
      });
    const currency = priceData.currency("currency");
    const unitAmount = priceData.integer("unit_amount", { required: true, min: 0, max: MAX_AMOUNT });
    const productData = priceData.child("product_data", { required: true });
    productData.rejectUnknown(["name", "description", "metadata", "images"]);
    const name = productData.string("name", { required: true, max: 5000 });
    productData.string("description");
    productData.metadata("metadata");
    productData.stringList("images");
    const quantity = item.integer("quantity", { required: true, min: 1, max: 999_999 });
    const amount = unitAmount * quantity;
    return {
      id: newId("li_"),
      object: "item",
      amount_discount: 0,
      amount_subtotal: amount,
      amount_tax: 0,
      amount_total: amount,
      currency,
      description: name,
      price: {
        id: newId("price_"),
        object: "price",
        // Prices made from price_data are single-use, so Stripe marks them inactive.
        active: false,
        created,
        currency,
        livemode: false,
        metadata: {},
        product: newId("prod_", 14),
        type: "one_time",
        unit_amount: unitAmount,
        unit_amount_decimal: String(unitAmount),
      },
      quantity,
    };
  });
  const currency = lineItems[0]?.currency ?? "usd";
  const otherCurrency = lineItems.findIndex((item) => item.currency !== currency);
  if (otherCurrency >= 0) throw invalidRequest("All line items must use the same currency.", `line_items[${otherCurrency}][price_data][currency]`);
  const amountTotal = lineItems.reduce((sum, item) => sum + item.amount_total, 0);
  if (amountTotal < MIN_CHARGE) {
    throw invalidRequest(`The Checkout Session's total amount due must add up to at least ${formatDollars(MIN_CHARGE)} ${currency}`, "line_items");
  }
  if (amountTotal > MAX_AMOUNT)
    throw invalidRequest(`The Checkout Session's total amount due must be no more than ${formatDollars(MAX_AMOUNT)} ${currency}`, "line_items");

  const intentData = params.child("payment_intent_data");
  intentData?.rejectUnknown(PAYMENT_INTENT_DATA_PARAMS);
  const applicationFeeAmount = intentData?.integer("application_fee_amount", { min: 0 }) ?? null;
  if (applicationFeeAmount !== null && options.account === null) {
    throw invalidRequest(
      "Can only apply an application_fee_amount when the PaymentIntent is attempting a direct payment (using an OAuth key or Stripe-Account header) or destination payment (using `transfer_data[destination]`).",
      "payment_intent_data[application_fee_amount]",
    );
  }
  if (applicationFeeAmount !== null && applicationFeeAmount > amountTotal) {
    throw invalidRequest("The application fee amount must be less than or equal to the amount of the payment.", "payment_intent_data[application_fee_amount]");
  }
  const intentMetadata = intentData?.metadata("metadata") ?? {};
  const description = intentData?.string("description") ?? null;
  const receiptEmail = intentData?.string("receipt_email") ?? null;
  intentData?.string("statement_descriptor_suffix", { max: 22 });

  const expiresAt = params.integer("expires_at") ?? created + 24 * 3600;
  if (expiresAt < created + 30 * 60)
    throw invalidRequest("The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.", "expires_at");
  if (expiresAt > created + 24 * 3600)
    throw invalidRequest("The `expires_at` timestamp must be less than 24 hours from Checkout Session creation.", "expires_at");

  const id = newId("cs_test_", 58);
  const session: CheckoutSession = {
    id,
    object: "checkout.session",
    amount_subtotal: amountTotal,
    amount_total: amountTotal,
    cancel_url: cancelUrl,
    client_reference_id: clientReferenceId,
    created,
    currency,
    customer: null,
    customer_details: null,
    customer_email: customerEmail,
    expires_at: expiresAt,
    livemode: false,
    locale,
    metadata,
    mode: "payment",
    payment_intent: null,
    payment_method_types: paymentMethodTypes.length > 0 ? paymentMethodTypes : ["card"],
    payment_status: "unpaid",
    status: "open",
    success_url: successUrl,
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: "hosted",
    url: `${baseUrl}/c/pay/${id}`,
  };
  return {
    session,
    data: { lineItems, paymentIntent: { applicationFeeAmount, metadata: intentMetadata, description, receiptEmail } },
    expandPaths,
  };
}
