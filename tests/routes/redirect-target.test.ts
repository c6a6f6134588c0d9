// safeRedirectPath: whatever the input, a Location that stays on this site.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { safeRedirectPath } from "../../app/redirect-target.server.ts";

const SITE = "https://pump.example.in";

/** Where a browser goes for a Location: tabs and newlines dropped, resolved against the page. */
function browserDestination(location: string): URL {
  return new URL(location.replace(/[\t\n\r]/g, ""), `${SITE}/some/page`);
}

describe("safeRedirectPath", () => {
  it("keeps paths of this site as they are", () => {
    for (const path of ["/", "/logs", "/logs?page=2", "/admin/users/12", "/motor-control#health", "/recharge?x=%20y"]) {
      expect(safeRedirectPath(path)).toBe(path);
    }
  });

  it("encodes what a header cannot carry instead of failing", () => {
    expect(safeRedirectPath("/खेत")).toBe("/%E0%A4%96%E0%A5%87%E0%A4%A4");
  });

  it("refuses anything else for the fallback", () => {
    for (const value of [
      null,
      undefined,
      42,
      "",
      "logs",
      "//evil.example",
      "/\\evil.example",
      "/\t/evil.example",
      "/\n",
      "https://evil.example",
      "/a b",
    ]) {
      expect(safeRedirectPath(value, "/home")).toBe("/home");
    }
  });

  it("never sends a browser to another origin, and is always a valid header value (10,000 generated inputs)", () => {
    const pieces = fc.constantFrom(
      "/",
      "//",
      "\\",
      "\t",
      "\n",
      "\r",
      " ",
      "%09",
      "%2f",
      "%5c",
      "..",
      ".",
      "evil.example",
      ":",
      "@",
      "?",
      "#",
      "\u0000",
      "\u3000",
      "\u2028",
      "https:",
      "javascript:",
      "ा",
    );
    const input = fc.oneof(
      fc.string(),
      fc.array(pieces, { maxLength: 8 }).map((parts) => parts.join("")),
      fc.array(pieces, { maxLength: 8 }).map((parts) => `/${parts.join("")}`),
    );
    fc.assert(
      fc.property(input, (value) => {
        const location = safeRedirectPath(value);
        expect(location).toMatch(/^\/(?!\/)[\u0021-\u007e]*$/);
        expect(location).not.toContain("\\");
        expect(browserDestination(location).origin).toBe(SITE);
        new Headers({ Location: location });
      }),
      { numRuns: 10_000, seed: 20261123 },
    );
  });
});
