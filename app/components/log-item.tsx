import { formatClockTime, formatDateTime } from "../../common/i18n/format.ts";
import { motorLogEntryText } from "../../common/i18n/motor-log.ts";
import type { MotorLogEntry } from "../../common/realtime-protocol.ts";
import { type Language, useWords } from "../i18n/i18n.ts";
import { AlertIcon, PlugIcon, StopIcon } from "./icons.tsx";

/**
 * One motor log card (SPEC §4): on is green with a plug, off red with a stop sign, anything
 * else yellow. Its time: the date and time, or only the clock time where a heading says the day.
 */
export function LogItem({
  log,
  language,
  time = "dateTime",
}: {
  log: MotorLogEntry;
  language: Language;
  time?: "dateTime" | "clock";
}) {
  const words = useWords();
  const action = log.action.toLowerCase();
  const kind = action === "on" || action === "off" ? action : "other";
  const Icon = kind === "on" ? PlugIcon : kind === "off" ? StopIcon : AlertIcon;
  return (
    <li className={`log ${kind}`} data-testid="log-item" data-action={kind}>
      <Icon className="icon log-icon" />
      <div className="log-body">
        <span data-kind={log.kind}>{motorLogEntryText(log, words)}</span>
        <time dateTime={log.timestamp}>
          {time === "clock" ? formatClockTime(log.timestamp, language) : formatDateTime(log.timestamp, language)}
        </time>
      </div>
    </li>
  );
}
