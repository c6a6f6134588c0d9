// The language switch's route action sends the browser back where it came from, and only to a
// page of this site (docs/security.md, "Redirects").
import { describe, expect, it } from "vitest";
import { action } from "../../app/routes/language.ts";
import { formPost, ORIGIN } from "./route-support.ts";

async function switchLanguage(returnTo: string | null, language = "en"): Promise<Response> {
  const request = formPost("/language", returnTo === null ? { language } : { language, returnTo });
  const result: unknown = await action({ request, params: {}, context: undefined } as unknown as Parameters<
    typeof action
  >[0]);
  if (!(result instanceof Response)) throw new Error("the action did not answer with a redirect");
  return result;
}

/** Where a browser would go: Location resolved against the page, as browsers do (they drop tabs and newlines first). */
function destination(response: Response): URL {
  const location = response.headers.get("Location");
  if (location === null) throw new Error("no Location");
  return new URL(location.replace(/[\t\n\r]/g, ""), `${ORIGIN}/language`);
}

describe("the language switch's return address", () => {
  it("goes back to the page it came from, query included, with the cookie set", async () => {
    const response = await switchLanguage("/logs?page=2");
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/logs?page=2");
    expect(response.headers.get("Set-Cookie")).toMatch(/^sinchai_lang=en;/);
  });

  it.each([
    "/\t/evil.example",
    "/%09/evil.example",
    "/\n/evil.example",
    "/\r\n/evil.example",
    "//evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "https://evil.example/",
    "http:evil.example",
    "javascript:alert(1)",
    " //evil.example",
    "/ /evil.example",
    "/\u0000/evil.example",
    "/\u3000/evil.example",
    "evil.example",
    "",
  ])("never leaves the site for %j, and never fails", async (returnTo) => {
    const response = await switchLanguage(returnTo);
    expect(response.status).toBe(302);
    expect(destination(response).origin).toBe(ORIGIN);
    expect(response.headers.get("Location")).toMatch(/^\/[\u0021-\u007e]*$/);
    expect(response.headers.get("Location")).not.toMatch(/^\/\/|\\/);
  });

  it("goes home without a return address, and for an unknown language too", async () => {
    expect((await switchLanguage(null)).headers.get("Location")).toBe("/");
    const unknown = await switchLanguage("/logs", "fr");
    expect(unknown.headers.get("Location")).toBe("/logs");
    expect(unknown.headers.get("Set-Cookie")).toBeNull();
  });
});
