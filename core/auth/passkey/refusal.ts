/**
 * Why a passkey response was refused, for tests and logs only: the user always sees the endpoint's one
 * refusal message (core/auth/messages.ts), whichever check failed.
 */
export class PasskeyRefusal extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "PasskeyRefusal";
  }
}
