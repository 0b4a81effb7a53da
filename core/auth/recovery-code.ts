/** Recovery codes look like `k7m2q-9xw4d`: 10 characters of a 32-letter alphabet (50 bits), in two groups. */
// No i, l or o: they read as 1 and 0. A typed o is taken for 0.
const ALPHABET = "abcdefghjkmnpqrstuvwxyz023456789";
const GROUP = 5;

/** Formats 10 random characters from `bytes` (one byte per character, rejection-free: 256 % 32 == 0). */
export function formatRecoveryCode(bytes: Uint8Array): string {
  const chars = Array.from(bytes.slice(0, GROUP * 2), (b) => ALPHABET[b % ALPHABET.length]).join("");
  return `${chars.slice(0, GROUP)}-${chars.slice(GROUP)}`;
}

/**
 * A typed or pasted recovery code in its stored form, or null. Case, spaces and the dash are forgiven
 * because people copy codes from printouts and password managers.
 */
export function normaliseRecoveryCode(input: string): string | null {
  const chars = input.toLowerCase().replace(/[\s-]/g, "").replace(/o/g, "0");
  if (chars.length !== GROUP * 2 || [...chars].some((c) => !ALPHABET.includes(c))) return null;
  return `${chars.slice(0, GROUP)}-${chars.slice(GROUP)}`;
}
