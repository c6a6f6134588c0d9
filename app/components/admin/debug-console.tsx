// The live debug log of a box (SPEC §9: the last 200 lines), fed by the page's realtime socket.
import { useEffect, useRef } from "react";
import { DEBUG_LINE_LIMIT } from "../../../common/hub-contract.ts";
import { useAdminT } from "../../i18n/admin.ts";

export type DebugLine = { timestamp: string; log: string };

/**
 * Adds a debug line from the realtime socket to the console's lines. The hub replays its last
 * 200 lines to every admin socket it accepts, so a reconnect repeats lines already shown: those
 * are skipped.
 */
export function appendDebugLine(lines: DebugLine[], added: DebugLine): DebugLine[] {
  if (lines.some((line) => line.timestamp === added.timestamp && line.log === added.log)) return lines;
  const next = [...lines, { timestamp: added.timestamp, log: added.log }];
  next.sort((a, b) => a.timestamp.localeCompare(b.timestamp));
  return next.slice(-DEBUG_LINE_LIMIT);
}

/** Console times are India time with seconds, in digits any engineer reads. */
const TIME = new Intl.DateTimeFormat("en-IN", {
  timeZone: "Asia/Kolkata",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
});

export function DebugConsole({ lines }: { lines: DebugLine[] }) {
  const t = useAdminT();
  const box = useRef<HTMLDivElement>(null);
  // Follow the newest line, like a terminal.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new line is what should move the view; the effect reads only the element
  useEffect(() => {
    if (box.current) box.current.scrollTop = box.current.scrollHeight;
  }, [lines]);
  return (
    <div
      ref={box}
      className="debug-console"
      role="log"
      aria-label={t("admin.settings.console")}
      data-testid="debug-console"
    >
      {lines.length === 0 ? (
        <p className="debug-empty">{t("admin.settings.consoleEmpty")}</p>
      ) : (
        lines.map((line) => (
          <div key={`${line.timestamp}|${line.log}`} className="debug-line">
            <time dateTime={line.timestamp}>{TIME.format(new Date(line.timestamp))}</time> {line.log}
          </div>
        ))
      )}
    </div>
  );
}
