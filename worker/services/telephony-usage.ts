// What alerts by SMS and call cost each account in a month, for the admin (GET
// /api/admin/telephony-usage and /admin/telephony): the SMS parts and call minutes counted in
// `phone_alert_months` (worker/db/phone-alert-counts.ts), priced with the environment's rates
// (TELEPHONY_PRICE_SMS_PAISE per SMS part, TELEPHONY_PRICE_CALL_MINUTE_PAISE per started minute of
// an answered call, dated TELEPHONY_PRICES_AS_OF). A rate that is not a number prices nothing:
// the counts still show, the cost is unknown.
import { getDb } from "../db/client.ts";
import { istMonth, type MonthUsageRow, monthUsage } from "../db/phone-alert-counts.ts";
import { readsThatMayLag } from "../db/reads-that-may-lag.ts";

export type TelephonyPriceEnv = Pick<
  Env,
  "TELEPHONY_PRICE_SMS_PAISE" | "TELEPHONY_PRICE_CALL_MINUTE_PAISE" | "TELEPHONY_PRICES_AS_OF"
>;

export type TelephonyPrices = { smsPartPaise: number | null; callMinutePaise: number | null; asOf: string | null };

function paise(value: string | undefined): number | null {
  if (!value || !/^[0-9]{1,6}(\.[0-9]{1,2})?$/.test(value)) return null;
  return Number(value);
}

export function telephonyPrices(env: TelephonyPriceEnv): TelephonyPrices {
  const asOf = env.TELEPHONY_PRICES_AS_OF;
  return {
    smsPartPaise: paise(env.TELEPHONY_PRICE_SMS_PAISE),
    callMinutePaise: paise(env.TELEPHONY_PRICE_CALL_MINUTE_PAISE),
    asOf: asOf && /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(asOf) ? asOf : null,
  };
}

export { istMonth };

function estimate(row: Pick<MonthUsageRow, "smsParts" | "callMinutes">, prices: TelephonyPrices): number | null {
  if (prices.smsPartPaise === null || prices.callMinutePaise === null) return null;
  return Math.round(row.smsParts * prices.smsPartPaise + row.callMinutes * prices.callMinutePaise);
}

/** Each account's SMS and calls in `month` with its estimated cost in paise, and the totals. */
export async function telephonyUsage(env: TelephonyPriceEnv & Pick<Env, "DB">, month: string) {
  const prices = telephonyPrices(env);
  const rows = await monthUsage(getDb(readsThatMayLag(env)), month);
  const accounts = rows.map((row) => ({ ...row, estimatedPaise: estimate(row, prices) }));
  const sum = (pick: (row: MonthUsageRow) => number) => rows.reduce((total, row) => total + pick(row), 0);
  const totals = {
    sms: sum((row) => row.sms),
    smsParts: sum((row) => row.smsParts),
    calls: sum((row) => row.calls),
    answeredCalls: sum((row) => row.answeredCalls),
    callMinutes: sum((row) => row.callMinutes),
    capped: sum((row) => row.capped),
  };
  return { month, prices, accounts, totals: { ...totals, estimatedPaise: estimate(totals, prices) } };
}
