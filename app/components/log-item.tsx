import type { MotorLogEntry } from "../../common/realtime-protocol.ts";
import { formatDateTime, relativeAge } from "../format.ts";
import { type Language, useWords } from "../i18n/i18n.ts";
import { motorLogEntryText } from "../i18n/motor-log.ts";
import { AlertIcon, PlugIcon, StopIcon } from "./icons.tsx";

/**
 * One motor log card (SPEC §4): on is green with a plug, off red with a stop sign, anything
 * else yellow. `now` given: the age ("5 minutes ago"); otherwise the date and time.
 */
export function LogItem({ log, language, now }: { log: MotorLogEntry; language: Language; now?: number }) {
  const words = useWords();
  const action = log.action.toLowerCase();
  const kind = action === "on" || action === "off" ? action : "other";
  const Icon = kind === "on" ? PlugIcon : kind === "off" ? StopIcon : AlertIcon;
  return (
    <li className={`log ${kind}`} data-testid="log-item" data-action={kind}>
      <Icon className="icon log-icon" />
      <div className="log-body">
        <span data-kind={log.kind}>{motorLogEntryText(log, words)}</span>
        <time dateTime={log.timestamp} title={formatDateTime(log.timestamp, language)}>
          {now === undefined ? formatDateTime(log.timestamp, language) : relativeAge(log.timestamp, language, now)}
        </time>
      </div>
    </li>
  );
}
