// ASVS 5.0 password rules beyond length (8–128, in api-schemas.ts): no composition rules, but
// none of the 3,000 most common passwords, and none that anyone who knows the account could
// guess at once: the mobile number itself (it is the login name, and printed on the box's
// paperwork), only blanks, or one character over and over. Kept out of api-schemas.ts so the
// 36 KB list never reaches a browser bundle: only the Worker and the operator scripts import it.
import { COMMON_PASSWORDS } from "./common-passwords.ts";

/** Why a new password is refused (after the length rule), as a code: pages and the API word it. */
export type WeakPasswordReason = "passwordBlank" | "passwordIsMobile" | "passwordRepeated" | "commonPassword";

/** The reasons in English, for the operator scripts (they have no catalogue). */
export const WEAK_PASSWORD_ENGLISH: Record<WeakPasswordReason, string> = {
  passwordBlank: "Your password cannot be only spaces.",
  passwordIsMobile: "Your password cannot be your mobile number.",
  passwordRepeated: "Your password cannot be one character repeated.",
  commonPassword: "This password is too common. Please choose a less common one.",
};

export function isCommonPassword(password: string): boolean {
  return COMMON_PASSWORDS.has(password.toLowerCase());
}

/** Whitespace, including the no-break, ideographic and zero-width spaces a phone keyboard may insert. */
const ONLY_BLANKS = /^[\s\u200b-\u200d\u2060\ufeff]*$/u;

/** The password is the number, however it is written (spaces, dashes, +91, 91 or 0 in front). */
function isTheMobileNo(password: string, mobileNo: string): boolean {
  const written = password.replace(/[\s\-.()]/gu, "");
  return [mobileNo, `91${mobileNo}`, `+91${mobileNo}`, `0${mobileNo}`].includes(written);
}

/** One character (as a reader sees it: "कि" is one) over and over, whatever its case. */
function isOneCharacterRepeated(password: string): boolean {
  const characters = new Set<string>();
  for (const { segment } of new Intl.Segmenter("en", { granularity: "grapheme" }).segment(password.toLowerCase())) {
    characters.add(segment);
    if (characters.size > 1) return false;
  }
  return characters.size === 1;
}

/**
 * Why a new password (already within the length rule) for the account `mobileNo` is refused,
 * or null when it is fine. One function for registration, password change and admin:create.
 */
export function weakPasswordReason(password: string, mobileNo: string): WeakPasswordReason | null {
  if (ONLY_BLANKS.test(password)) return "passwordBlank";
  if (isTheMobileNo(password, mobileNo)) return "passwordIsMobile";
  if (isOneCharacterRepeated(password)) return "passwordRepeated";
  if (isCommonPassword(password)) return "commonPassword";
  return null;
}
