import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { COMMON_PASSWORDS } from "../../common/common-passwords.ts";
import { COMMON_PASSWORDS_FILE, commonPasswordsModule } from "../../scripts/generate-common-passwords.ts";

describe("common/common-passwords.ts", () => {
  it("is what the generator makes from the installed list (run npm run passwords:generate)", () => {
    expect(readFileSync(COMMON_PASSWORDS_FILE, "utf8")).toBe(commonPasswordsModule());
  });

  it("holds 3,000 lower-case passwords our length rule would otherwise allow", () => {
    expect(COMMON_PASSWORDS.size).toBe(3_000);
    for (const password of COMMON_PASSWORDS) {
      expect(password).toBe(password.toLowerCase());
      expect(password.length).toBeGreaterThanOrEqual(8);
    }
    expect(COMMON_PASSWORDS.has("password")).toBe(true);
    expect(COMMON_PASSWORDS.has("sinchai-demo")).toBe(false);
  });
});
