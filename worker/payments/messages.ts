// The SMS a recharge sends (docs/payments.md, "SMS"): the receipt once an online payment was
// captured and the plan extended, and the renewal reminders 7 days and 1 day before a box's plan
// ends, each once (plan_reminders' unique device, end and kind). DLT templates both
// (worker/telephony/sms-templates.ts); a failure to send is logged and changes nothing else.
import { formatDate, formatRupees } from "../../common/i18n/format.ts";
import type { Language } from "../../common/i18n/language.ts";
import { getDb } from "../db/client.ts";
import { findDeviceById } from "../db/devices.ts";
import { coverageEnd, paymentReference } from "../db/payments.ts";
import type { PaymentRow } from "../db/schema.ts";
import { configuredProvider } from "../telephony/config.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
/** The reminders, by how long before the plan's end each goes: the first within a week, the last within a day. */
export const REMINDER_WINDOWS = { "7d": 7 * DAY_MS, "1d": DAY_MS } as const;
/** Reminders sent in one cron run at most; the rest go in the next minutes. */
const REMINDERS_PER_RUN = 50;

/** The receipt of a captured payment, in the language of its checkout, with the plan's new end. */
export async function sendReceipt(env: Env, payment: PaymentRow): Promise<void> {
  try {
    const db = getDb(env.DB);
    const [device, endsAt] = await Promise.all([
      findDeviceById(db, payment.deviceId),
      coverageEnd(db, payment.deviceId),
    ]);
    const language: Language = payment.language;
    await configuredProvider(env).sendSms({
      to: payment.mobileNo,
      template: "rechargeReceipt",
      language,
      values: {
        rupees: formatRupees((payment.capturedPaise ?? payment.amountPaise) / 100, language),
        receipt: paymentReference(payment.id),
        pumpName: device?.name || payment.deviceId,
        date: formatDate(endsAt, language),
      },
    });
  } catch (error) {
    console.error(`The receipt of payment ${payment.id} could not be sent`, error);
  }
}

type Due = { deviceId: string; endsAt: number; name: string | null; mobileNo: string; language: "hi" | "en" };

/**
 * Sends the reminders due now: a box whose coverage ends within 7 days (the "7d" one) or within a
 * day (the "1d" one), to its owner, once each for that end. A plan extended since has a new end,
 * and its own two. In the language the owner chose for their SMS on /alerts; Hindi, the app's
 * default, when they chose none.
 */
export async function sendPlanReminders(env: Env, now = Date.now()): Promise<number> {
  const d1 = env.DB;
  const { results } = await d1
    .prepare(
      `SELECT p.device_id AS deviceId, p.ends_at AS endsAt, d.name AS name, u.mobile_no AS mobileNo,
              COALESCE(a.language, 'hi') AS language
       FROM plan_periods p
       JOIN devices d ON d.id = p.device_id
       JOIN users u ON u.id = d.owner_user_id
       LEFT JOIN alert_settings a ON a.user_id = u.id
       WHERE p.ends_at > ?1 AND p.ends_at <= ?2
         AND NOT EXISTS (SELECT 1 FROM plan_periods later WHERE later.device_id = p.device_id AND later.ends_at > p.ends_at)
         AND NOT EXISTS (SELECT 1 FROM plan_reminders r WHERE r.device_id = p.device_id AND r.ends_at = p.ends_at
               AND r.kind = CASE WHEN p.ends_at - ?1 <= ?3 THEN '1d' ELSE '7d' END)
       ORDER BY p.ends_at
       LIMIT ?4`,
    )
    .bind(now, now + REMINDER_WINDOWS["7d"], REMINDER_WINDOWS["1d"], REMINDERS_PER_RUN)
    .all<Due>();
  let sent = 0;
  for (const due of results) {
    const kind = due.endsAt - now <= REMINDER_WINDOWS["1d"] ? "1d" : "7d";
    // Claimed before it is sent: a run beside this one (a slow minute) sends it no second time.
    const claimed = await d1
      .prepare(
        `INSERT INTO plan_reminders (device_id, ends_at, kind, sent_at) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (device_id, ends_at, kind) DO NOTHING RETURNING id`,
      )
      .bind(due.deviceId, due.endsAt, kind, now)
      .first();
    if (!claimed) continue;
    try {
      await configuredProvider(env).sendSms({
        to: due.mobileNo,
        template: "planReminder",
        language: due.language,
        values: {
          pumpName: due.name || due.deviceId,
          date: formatDate(due.endsAt, due.language),
          url: env.TELEPHONY_WEBHOOK_ORIGIN,
        },
      });
      sent++;
    } catch (error) {
      console.error(`The ${kind} renewal reminder of ${due.deviceId} could not be sent`, error);
    }
  }
  return sent;
}
