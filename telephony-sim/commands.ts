// What a person types to the local provider, in `npm run phone-sim` and in `npm start`'s terminal:
//   press 1 [callId]   hangup [callId]   phone 9876543210 off|on   sms 9876543210 चालू 30
//   missed 9876543210 [start]   call 9876543210   list
import type { LocalProvider } from "./local-provider.ts";
import { spacedNumber } from "./phone-log.ts";

export const PHONE_COMMANDS_HELP =
  "press <key> [callId], hangup [callId], phone <number> off|on, sms <number> <text>, missed <number> [start], call <number>, list";

/** Runs one typed line; whatever it has to say goes to `print`. */
export async function runPhoneCommand(
  provider: LocalProvider,
  line: string,
  print: (line: string) => void,
): Promise<void> {
  const [verb = "", ...rest] = line.trim().split(/\s+/);
  try {
    switch (verb) {
      case "press":
        return await provider.press(rest[0] ?? "1", rest[1]);
      case "hangup":
        return await provider.hangUp(rest[0]);
      case "phone": {
        const [mobileNo = "", state = ""] = rest;
        if (!/^[1-9][0-9]{9}$/.test(mobileNo) || !["on", "off"].includes(state)) {
          return print("  phone <10-digit number> off (calls ring out unanswered) or on (calls are answered)");
        }
        return provider.setAnswering(mobileNo, state === "on");
      }
      case "sms":
        return print(`  the Worker answered ${await provider.inboundSms(rest[0] ?? "", rest.slice(1).join(" "))}`);
      case "missed":
        return print(
          `  the Worker answered ${await provider.missedCall(rest[0] ?? "", rest[1] === "start" ? "start" : "stop")}`,
        );
      case "call": {
        const call = await provider.callMenu(rest[0] ?? "");
        return print(call.waitingForKey ? `  call ${call.id}: press a key` : `  call ${call.id}: ${call.status}`);
      }
      case "list": {
        const { sms, calls } = provider.records();
        for (const message of sms) print(`SMS to ${spacedNumber(message.to)} (${message.status}): ${message.text}`);
        for (const call of calls) {
          const keys = call.pressed.join(",") || "none";
          print(
            `Call to ${spacedNumber(call.to)} ${call.id} (${call.status}): ${call.spoken.join(" / ")}; keys ${keys}`,
          );
        }
        return;
      }
      case "":
        return;
      default:
        return print(`Phone commands: ${PHONE_COMMANDS_HELP}`);
    }
  } catch (error) {
    print(`  ${error instanceof Error ? error.message : error}`);
  }
}
