// ASVS 5.0 password rules beyond length (8–128, in api-schemas.ts): no composition rules,
// but none of the 3,000 most common passwords. Kept out of api-schemas.ts so the 36 KB list
// never reaches a browser bundle: only the Worker and the operator scripts import it.
import { COMMON_PASSWORDS } from "./common-passwords.ts";

export const COMMON_PASSWORD_MESSAGE = "This password is too common. Please choose a less common one.";

export function isCommonPassword(password: string): boolean {
  return COMMON_PASSWORDS.has(password.toLowerCase());
}
