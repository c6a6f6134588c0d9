// The first admin of a database (and any later one), straight against D1: production has no
// default admin, so someone with wrangler access makes one. Same rules as the app: a 10-digit
// number, a password of 8 to 128 characters, PBKDF2 as in common/credentials.ts.
import { mobileNoSchema, newPasswordSchema } from "../../common/api-schemas.ts";
import { hashPassword } from "../../common/credentials.ts";
import { WEAK_PASSWORD_ENGLISH, weakPasswordReason } from "../../common/password-policy.ts";
import { type D1Target, executeSql } from "./local-d1.ts";
import { operatorSql } from "./operator-sql.ts";

/** Where `npm run admin:create` takes the password from, when set (CI, scripts). */
export const PASSWORD_ENV = "SINCHAI_ADMIN_PASSWORD";

export type AdminAccountResult = "created" | "promoted" | "alreadyAdmin";

/** The first problem with a value, in words for the operator; null when it is fine. */
export function mobileNoProblem(mobileNo: string): string | null {
  const result = mobileNoSchema.safeParse(mobileNo);
  return result.success ? null : (result.error.issues[0]?.message ?? "Enter a 10-digit mobile number.");
}

export function passwordProblem(password: string, mobileNo: string): string | null {
  const result = newPasswordSchema.safeParse(password);
  if (!result.success) return result.error.issues[0]?.message ?? "Invalid password.";
  const reason = weakPasswordReason(password, mobileNo);
  return reason === null ? null : WEAK_PASSWORD_ENGLISH[reason];
}

/** Whether an account exists for the number, and whether it is an admin already. */
export async function findAccount(target: D1Target, mobileNo: string): Promise<{ isAdmin: boolean } | null> {
  const [row] = await executeSql<{ is_admin: number }>(target, operatorSql({ op: "findAccount", mobileNo }));
  return row ? { isAdmin: row.is_admin === 1 } : null;
}

/**
 * Makes `mobileNo` an admin. An existing account is promoted and keeps its password (the
 * password is then not needed); a new one is created with `password()`.
 */
export async function createOrPromoteAdmin(
  target: D1Target,
  mobileNo: string,
  password: () => Promise<string>,
): Promise<AdminAccountResult> {
  const mobileProblem = mobileNoProblem(mobileNo);
  if (mobileProblem) throw new Error(mobileProblem);
  const existing = await findAccount(target, mobileNo);
  if (existing?.isAdmin) return "alreadyAdmin";
  if (existing) {
    await executeSql(target, operatorSql({ op: "promoteAdmin", mobileNo }));
    return "promoted";
  }
  const secret = await password();
  const problem = passwordProblem(secret, mobileNo);
  if (problem) throw new Error(problem);
  const passwordHash = await hashPassword(secret);
  await executeSql(target, operatorSql({ op: "createAdmin", mobileNo, passwordHash, now: Date.now() }));
  return "created";
}
