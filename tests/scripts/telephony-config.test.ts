// wrangler.toml's telephony settings: local mode talks to the local provider on loopback; staging
// and production can not (TELEPHONY_LOCAL_URL is empty there, and the Worker accepts nothing but
// loopback in it anyway: tests/worker/telephony/config.test.ts), name a real provider or a
// placeholder `npm run deploy` refuses, and require both telephony secrets.
import { describe, expect, it } from "vitest";
import { environmentNames, readWranglerToml } from "../../scripts/lib/environments.ts";

type Section = { vars?: Record<string, unknown>; secrets?: { required?: string[] } };

describe("the telephony settings in wrangler.toml", () => {
  it("point local mode at the local provider, on loopback, through Twilio's API", async () => {
    const config = (await readWranglerToml()) as Section;
    expect(config.vars).toMatchObject({
      TELEPHONY_PROVIDER: "twilio",
      TELEPHONY_API_HOST: "api.twilio.com",
      TELEPHONY_LOCAL_URL: "http://127.0.0.1:8789",
    });
    expect(config.secrets?.required).toEqual(
      expect.arrayContaining(["TELEPHONY_API_TOKEN", "TELEPHONY_WEBHOOK_SECRET"]),
    );
  });

  it("never let staging or production reach the local provider, and name a provider or a placeholder", async () => {
    const config = await readWranglerToml();
    const names = environmentNames(config);
    expect(names).toEqual(["staging", "production"]);
    for (const name of names) {
      const section = config.env![name] as Section;
      expect(section.vars?.TELEPHONY_LOCAL_URL, name).toBe("");
      expect(String(section.vars?.TELEPHONY_PROVIDER), name).toMatch(/^(twilio|exotel|REPLACE-ME.*)$/);
      expect(String(section.vars?.TELEPHONY_API_HOST), name).toMatch(
        /^(api\.twilio\.com|api\.in\.exotel\.com|api\.exotel\.com|REPLACE-ME.*)$/,
      );
      expect(String(section.vars?.TELEPHONY_WEBHOOK_ORIGIN), name).toMatch(/^(https:\/\/|REPLACE-ME)/);
      expect(section.secrets?.required, name).toEqual(
        expect.arrayContaining(["TELEPHONY_API_TOKEN", "TELEPHONY_WEBHOOK_SECRET"]),
      );
    }
  });
});
