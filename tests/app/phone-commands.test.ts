// The SMS command words as farmers write them (docs/telephony.md, "Accepted forms"): every row of
// that table is read here, from the docs themselves, so what the docs promise and what the
// reader does cannot drift apart. Then how a pump is chosen from the words after the command.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { choosePump, normalisedWords, type PhoneCommand, readPhoneCommand } from "../../common/phone-commands.ts";

type Row = { sms: string; readAs: string };

/** The rows of the table under "#### Accepted forms". */
function acceptedForms(): Row[] {
  const markdown = readFileSync(new URL("../../docs/telephony.md", import.meta.url), "utf8");
  const section = markdown.slice(markdown.indexOf("#### Accepted forms"));
  const table = section.slice(section.indexOf("| SMS | Read as |"));
  const rows: Row[] = [];
  for (const line of table.split("\n").slice(2)) {
    if (!line.startsWith("| ")) break;
    const [, sms = "", readAs = ""] = line.split("|").map((cell) => cell.trim());
    rows.push({ sms: sms.replace(/^`|`$/g, ""), readAs });
  }
  return rows;
}

/** A "Read as" cell as the command it names: `ON 30 · pump x · PIN 1234`, `OFF`, `STATUS`, `none`. */
function expected(readAs: string): PhoneCommand | null {
  if (readAs === "none") return null;
  const [verb = "", ...parts] = readAs.split(" · ");
  const [kind, minutes] = verb.split(" ");
  const action =
    kind === "ON"
      ? { kind: "on" as const, minutes: minutes === undefined ? null : Number(minutes) }
      : kind === "OFF"
        ? { kind: "off" as const }
        : { kind: "status" as const };
  if (kind !== "ON" && kind !== "OFF" && kind !== "STATUS") throw new Error(`Not a command: ${readAs}`);
  const pump = parts.find((part) => part.startsWith("pump "))?.slice(5) ?? null;
  const pin = parts.find((part) => part.startsWith("PIN "))?.slice(4) ?? null;
  return { action, pump: pump === null ? null : normalisedWords(pump), pin };
}

const rows = acceptedForms();

describe("docs/telephony.md's accepted forms", () => {
  it("has its table, with the spellings the farmers' tester sent", () => {
    expect(rows.length).toBeGreaterThan(30);
    expect(rows.map((row) => row.sms)).toEqual(
      expect.arrayContaining(["बन्द", "चालु 10", "मोटर बंद करो", "off karo", "STOP", "1234 बन्द"]),
    );
  });

  it.each(rows)("reads $sms as $readAs", ({ sms, readAs }) => {
    expect(readPhoneCommand(sms)).toEqual(expected(readAs));
  });
});

describe("choosing the pump from the words after the command", () => {
  const pumps = [
    { deviceId: "SNC-2026-4F2A", name: "कुएँ वाला पंप" },
    { deviceId: "SNC-2026-77B1", name: "खेत" },
  ];

  it("matches a name written with other spellings (ँ/ं, ू/ु, a nukta) and a box id's last characters", () => {
    expect(choosePump(pumps, "कुंए वाला पंप")).toBe(null);
    expect(choosePump(pumps, "कुएं वाला पंप")).toBe(pumps[0]);
    expect(choosePump(pumps, "कुएँ  वाला  पंप")).toBe(pumps[0]);
    expect(choosePump(pumps, "77b1")).toBe(pumps[1]);
    expect(choosePump(pumps, null)).toBe(null);
    expect(choosePump(pumps.slice(0, 1), null)).toBe(pumps[0]);
  });
});
