// The time of day in what the Worker sends a person (push, SMS, a call's words): Hindi names
// the part of the day as the pages do ("शाम 4:12"), never AM or PM; English keeps the hub's own
// "4:12 PM", the form its schedules and older messages use.
import { formatTimeOfDay } from "../../common/i18n/format.ts";
import { formatClock } from "../../common/schedule-time.ts";

export function messageTime(minuteOfDay: number, language: "hi" | "en"): string {
  // Intl may put a no-break space between the part of the day and the time; an SMS variable
  // takes plain spaces only.
  return language === "en" ? formatClock(minuteOfDay) : formatTimeOfDay(minuteOfDay, language).replace(/\s/gu, " ");
}
