// Request bodies of the HTTP API (SPEC §7), parsed by the Worker and reused by the forms. What
// it answers is in ./api-responses/.

import { MOBILE_NO_PATTERN, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "./constants.ts";
import { relayStateSchema } from "./device-protocol.ts";
import { z } from "./zod.ts";

export const mobileNoSchema = z
  .string({
    error: (issue) => (issue.input === undefined ? "Mobile number is required." : "Enter a 10-digit mobile number."),
  })
  .trim()
  .regex(MOBILE_NO_PATTERN, { error: "Enter a 10-digit mobile number." });

export const passwordSchema = z.string({ error: "Password is required." }).min(1, { error: "Password is required." });

/** Registration sets a password, so it gets the length rule; login takes any string. */
export const newPasswordSchema = z
  .string({ error: "Password is required." })
  .min(PASSWORD_MIN_LENGTH, {
    error: `Password must be at least ${PASSWORD_MIN_LENGTH} characters.`,
  })
  .max(PASSWORD_MAX_LENGTH, {
    error: `Password must be at most ${PASSWORD_MAX_LENGTH} characters.`,
  });

export const registerRequestSchema = z.object({
  mobileNo: mobileNoSchema,
  password: newPasswordSchema,
});

export const changePasswordRequestSchema = z.object({
  currentPassword: passwordSchema.max(PASSWORD_MAX_LENGTH, {
    error: `Password must be at most ${PASSWORD_MAX_LENGTH} characters.`,
  }),
  newPassword: newPasswordSchema,
});

export const loginRequestSchema = z.object({
  mobileNo: mobileNoSchema,
  password: passwordSchema.max(PASSWORD_MAX_LENGTH, {
    error: `Password must be at most ${PASSWORD_MAX_LENGTH} characters.`,
  }),
});

/** A one-time code as typed: six digits (spaces a phone keyboard adds between them are dropped). */
export const oneTimeCodeSchema = z
  .string({ error: "Enter the 6-digit code from the SMS." })
  .transform((code) => code.replace(/\s/g, ""))
  .pipe(z.string().regex(/^[0-9]{6}$/, { error: "Enter the 6-digit code from the SMS." }));

/**
 * What a code is for (docs/telephony.md, "Verified numbers"): signing a verified number in,
 * setting a new password, or verifying the number of the account it belongs to.
 */
export const codePurposeSchema = z.enum(["signIn", "resetPassword", "verifyNumber"], {
  error: "purpose must be one of signIn, resetPassword, verifyNumber",
});
export type CodePurposeName = z.infer<typeof codePurposeSchema>;

/** POST /api/auth/codes: send a code for `purpose` to `mobileNo` (answered alike for every number). */
export const codeRequestSchema = z.object({ purpose: codePurposeSchema, mobileNo: mobileNoSchema });

/** POST /api/auth/verify-number: the code sent to the signed-in account's own number. */
export const verifyNumberRequestSchema = z.object({ code: oneTimeCodeSchema });

/** POST /api/auth/login-code: a number and the sign-in code sent to it. */
export const codeLoginRequestSchema = z.object({ mobileNo: mobileNoSchema, code: oneTimeCodeSchema });

/** POST /api/auth/reset-password: a number, the code sent to it to set a new password, and that password. */
export const resetPasswordRequestSchema = z.object({
  mobileNo: mobileNoSchema,
  code: oneTimeCodeSchema,
  newPassword: newPasswordSchema,
});

/** `token` is in the spec's payload for old clients; the Worker authenticates by header or cookie. */
export const motorCommandRequestSchema = z.object({
  action: relayStateSchema,
  token: z.string().optional(),
});

/** A number, also when a form sends it as text ("9.5"); never "" or "abc". */
function numberBetween(field: string, min: number, max: number) {
  const message = `${field} must be a number from ${min} to ${max}.`;
  return z
    .union(
      [
        z.number(),
        z
          .string()
          .trim()
          .regex(/^-?\d+(\.\d+)?$/, { error: message }),
      ],
      { error: message },
    )
    .transform(Number)
    .pipe(z.number({ error: message }).min(min, { error: message }).max(max, { error: message }));
}

/**
 * A voltage limit (docs/decisions/019): a number; null, or a form's empty field, sets it back to
 * the box's kind's default; absent leaves it as it is (SPEC §3's clients send none). Its range
 * depends on the box's kind, which the body does not say: the settings service checks it
 * (`voltageLimitOutOfRange`, 400 `voltageLimitOutOfRange` with the range).
 */
function voltageLimit(field: string, max: number) {
  return z
    .union([z.null(), z.literal("").transform(() => null), numberBetween(field, 0, max)], {
      error: `${field} must be a number from 0 to ${max}, or empty for the default.`,
    })
    .optional();
}

/** SPEC §3 motorConfig, and the voltage limits beside it. The spec's client checks no ranges; the server keeps them physical. */
export const motorConfigRequestSchema = z.object({
  token: z.string().optional(),
  defaultCurrent: numberBetween("Default current", 0.1, 100),
  dryRunThreshold: numberBetween("Dry run threshold", 0, 95),
  overCurrentThreshold: numberBetween("Over current threshold", 0, 500),
  underVoltage: voltageLimit("Under voltage", 1000),
  overVoltage: voltageLimit("Over voltage", 1000),
  voltageUnbalance: voltageLimit("Voltage unbalance", 100),
  /**
   * A change that weakens protection (common/protection-changes.ts) is saved only with this
   * `true`: without it the answer is 409 `weakerProtectionUnconfirmed` naming old and new values.
   */
  confirmWeakerProtection: z.boolean({ error: "confirmWeakerProtection must be true or false." }).optional(),
});

/** The settings of a change, without what only asks for it (the token, the confirmation). */
export type MotorConfig = Omit<z.infer<typeof motorConfigRequestSchema>, "token" | "confirmWeakerProtection">;

export const otaRequestSchema = z.object({
  mobileNo: mobileNoSchema,
  deviceType: z.enum(["wifi", "sim"], { error: 'must be "wifi" or "sim"' }),
});

export type OtaRequest = z.infer<typeof otaRequestSchema>;

/** PUT /api/admin/device-config: either the debug flag or a new mobile number (SPEC §7). */
export const deviceConfigRequestSchema = z.union(
  [
    z.object({ mobileNo: mobileNoSchema, debug: z.boolean() }).strict(),
    z.object({ mobileNo: mobileNoSchema, newMobile: z.string({ error: "Invalid mobile number" }) }).strict(),
  ],
  { error: "Send mobileNo with either debug (true or false) or newMobile." },
);

export const rechargeRequestSchema = z.object({
  /** Optional: the request is always for the signed-in account; a different number is refused. */
  mobileNo: mobileNoSchema.optional(),
  plan: z.enum(["1month", "3month", "6month", "1year"], { error: "must be one of 1month, 3month, 6month, 1year" }),
  paymentMethod: z.enum(["upi", "bank", "cash"], { error: "must be one of upi, bank, cash" }),
  /** Ignored: the server sets the amount from the plan. */
  amount: z.unknown().optional(),
});

/** POST /api/payments/checkout: a plan for the caller's own box (`pump`: its id; default their first). */
export const paymentCheckoutRequestSchema = z.object({
  plan: z.enum(["1month", "3month", "6month", "1year"], { error: "must be one of 1month, 3month, 6month, 1year" }),
  pump: z.string().min(1).max(64).optional(),
  /** Ignored: the server sets the amount from the plan. */
  amount: z.unknown().optional(),
});

export const rechargeStatusRequestSchema = z.object({
  status: z.enum(["paid", "failed"], { error: 'must be "paid" or "failed"' }),
});
