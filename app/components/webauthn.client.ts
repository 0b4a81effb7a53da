/**
 * The browser half of passkeys (@simplewebauthn/browser), only ever called from event handlers and effects.
 * A `.client` module is left out of the server build, so the Worker does not carry it (decision 0029's budget).
 */
export { browserSupportsWebAuthn, startAuthentication, startRegistration } from "@simplewebauthn/browser";
export type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/browser";
