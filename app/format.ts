// Dates, ages and numbers for India, in the reader's language (SPEC §4, §9).
import { localeOf, type Language } from "./i18n/messages.ts";

const TIME_ZONE = "Asia/Kolkata";

export function formatDateTime(iso: string | number, language: Language): string {
  return new Date(iso).toLocaleString(localeOf(language), { timeZone: TIME_ZONE, dateStyle: "medium", timeStyle: "short" });
}

export function formatDate(iso: string | number, language: Language): string {
  return new Date(iso).toLocaleDateString(localeOf(language), { timeZone: TIME_ZONE, dateStyle: "medium" });
}

export function formatNumber(value: number, language: Language, maximumFractionDigits = 2): string {
  return new Intl.NumberFormat(localeOf(language), { maximumFractionDigits }).format(value);
}

export function formatRupees(amount: number, language: Language): string {
  return new Intl.NumberFormat(localeOf(language), { style: "currency", currency: "INR", maximumFractionDigits: 0 }).format(amount);
}

/** "5 seconds ago", "3 minutes ago", "2 hours ago", "4 days ago" (thresholds 60 s, 60 min, 24 h). */
export function relativeAge(iso: string | number, language: Language, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - new Date(iso).getTime()) / 1000));
  const format = new Intl.RelativeTimeFormat(localeOf(language), { numeric: "always" });
  if (seconds < 60) return format.format(-seconds, "second");
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return format.format(-minutes, "minute");
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return format.format(-hours, "hour");
  return format.format(-Math.floor(hours / 24), "day");
}

/** When something began: the time of day if within the last day, else the date and time. */
export function formatSince(at: number, language: Language, now = Date.now()): string {
  if (now - at < 24 * 60 * 60 * 1000) {
    return new Date(at).toLocaleTimeString(localeOf(language), { timeZone: TIME_ZONE, timeStyle: "short" });
  }
  return formatDateTime(at, language);
}
