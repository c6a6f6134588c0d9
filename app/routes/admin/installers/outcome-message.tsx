// What the installers page's last post did, in words: made, given, taken back, saved, tagged,
// with the box ids it left out and why; or why it was refused.
import type { AdminMessageKey } from "../../../../common/i18n/admin-en.ts";
import { useAdminT } from "../../../i18n/admin.ts";
import type { Outcome } from "./actions.server.ts";

const DONE: Record<Exclude<Outcome["intent"], null>, AdminMessageKey> = {
  makeInstaller: "admin.installers.made",
  giveStock: "admin.installers.given",
  takeBackStock: "admin.installers.takenBack",
  setRegion: "admin.installers.regionSaved",
  tagBoxes: "admin.installers.tagged",
};

const LEFT_OUT: Partial<Record<Exclude<Outcome["intent"], null>, AdminMessageKey>> = {
  giveStock: "admin.installers.notGiven",
  takeBackStock: "admin.installers.notTakenBack",
  tagBoxes: "admin.installers.notTagged",
};

export function OutcomeMessage({ outcome }: { outcome: Outcome }) {
  const t = useAdminT();
  if (!outcome.ok) {
    return (
      <p className="message error" role="alert" data-testid="installers-result">
        {t(outcome.error, outcome.values)}
      </p>
    );
  }
  const ids = (list: string[] | undefined) => (list && list.length > 0 ? list.join(", ") : "—");
  const leftOut = LEFT_OUT[outcome.intent];
  const key =
    outcome.intent === "setRegion" && !outcome.region ? "admin.installers.regionCleared" : DONE[outcome.intent];
  return (
    <>
      <p className="message success" role="status" data-testid="installers-result">
        {t(key, { name: outcome.name ?? "", region: outcome.region ?? "", ids: ids(outcome.done) })}
      </p>
      {leftOut && outcome.leftOut && outcome.leftOut.length > 0 && (
        <p className="message warning" data-testid="installers-left-out">
          {t(leftOut, { ids: ids(outcome.leftOut) })}
        </p>
      )}
    </>
  );
}
