// ASVS 5.0 password rules beyond length (8–128, in common/api-schemas.ts): no composition
// rules, but none of the 3,000 most common passwords. Server-only: the list stays out of
// every browser bundle.
import { COMMON_PASSWORDS } from "../../common/common-passwords.ts";

export const COMMON_PASSWORD_MESSAGE = "This password is too common. Please choose a less common one.";

export function isCommonPassword(password: string): boolean {
  return COMMON_PASSWORDS.has(password.toLowerCase());
}
