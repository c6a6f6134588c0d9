// The switch's taps and their answers. With the socket open a tap travels on it and the form is
// not posted; without one (not yet open, dropped, or no script at all) the form posts as it
// always did (docs/decisions/023-commands-over-the-socket.md). Either way the answer is kept
// with the state it was given in, and a failure shows only while that state lasts.
import { type FormEvent, useEffect, useState } from "react";
import { useActionData, useFetcher } from "react-router";
import type { PumpState } from "../../../common/pump-state.ts";
import { relayStateCheck } from "../../checks/generated.ts";
import type { useDeviceRealtime } from "../../realtime/use-device-realtime.ts";
import { type CommandOutcome, outcomeOf, type SwitchAnswer, stateKey } from "./command-outcome.ts";

/** The switch form's fetcher, its submit handler (the socket's way), whether a tap is on its way, and the failure to show. */
export function useMotorSwitch(
  pump: PumpState,
  /** The state the server rendered the page with: a no-script post's answer was given in it. */
  openingPump: PumpState,
  ask: ReturnType<typeof useDeviceRealtime>[2],
) {
  const fetcher = useFetcher<SwitchAnswer>();
  const posted = useActionData<SwitchAnswer>();
  // The answer to the last command, with the state it was given in (see stateKey).
  const [answer, setAnswer] = useState<{ outcome: CommandOutcome; key: string } | null>(() =>
    posted?.command ? { outcome: posted.command, key: stateKey(openingPump) } : null,
  );
  // A tap sent on the open socket, until its answer; then the answer, until its effect below words it.
  const [asking, setAsking] = useState(false);
  const [socketAnswer, setSocketAnswer] = useState<CommandOutcome | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new answer is news; the state it was given in is read as it is at that moment
  useEffect(() => {
    if (fetcher.data?.command) setAnswer({ outcome: fetcher.data.command, key: stateKey(pump) });
    // Only a new answer is news; the state it was given in is read as it is at that moment.
  }, [fetcher.data]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: as for the form's answer above
  useEffect(() => {
    if (socketAnswer) setAnswer({ outcome: socketAnswer, key: stateKey(pump) });
  }, [socketAnswer]);

  function switchOnSocket(event: FormEvent<HTMLFormElement>) {
    const action = relayStateCheck.safeParse((event.nativeEvent as SubmitEvent).submitter?.getAttribute("value"));
    if (!action.success) return;
    const answered = ask({ type: "switchMotor", action: action.data });
    if (!answered) return;
    event.preventDefault();
    setAsking(true);
    void answered.then((answer) => {
      setAsking(false);
      setSocketAnswer(outcomeOf(answer));
    });
  }

  const sending = fetcher.state !== "idle" || asking;
  const failure = answer && !answer.outcome.ok && answer.key === stateKey(pump) ? answer.outcome : null;
  return [fetcher, switchOnSocket, sending, failure] as const;
}
