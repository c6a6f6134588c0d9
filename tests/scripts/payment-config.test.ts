// wrangler.toml's payment settings: local mode pays at the local gateway on loopback; staging and
// production can not (PAYMENT_LOCAL_URL is empty there, and the Worker accepts nothing but
// loopback in it anyway: worker/payments/config.ts), name Razorpay, nothing, or a placeholder
// `npm run deploy` refuses, and require both payment secrets.
import { describe, expect, it } from "vitest";
import { environmentNames, readWranglerToml } from "../../scripts/lib/environments.ts";

type Section = { vars?: Record<string, unknown>; secrets?: { required?: string[] } };

describe("the payment settings in wrangler.toml", () => {
  it("point local mode at the local gateway, on loopback, with a Razorpay test key id", async () => {
    const config = (await readWranglerToml()) as Section;
    expect(config.vars).toMatchObject({
      PAYMENT_PROVIDER: "razorpay",
      RAZORPAY_KEY_ID: expect.stringMatching(/^rzp_test_/),
      PAYMENT_LOCAL_URL: "http://127.0.0.1:8790",
    });
    expect(config.secrets?.required).toEqual(
      expect.arrayContaining(["RAZORPAY_KEY_SECRET", "RAZORPAY_WEBHOOK_SECRET"]),
    );
  });

  it("never let staging or production reach the local gateway", async () => {
    const config = await readWranglerToml();
    for (const name of environmentNames(config)) {
      const section = config.env![name] as Section;
      expect(section.vars?.PAYMENT_LOCAL_URL, name).toBe("");
      expect(String(section.vars?.PAYMENT_PROVIDER), name).toMatch(/^(razorpay|REPLACE-ME.*|)$/);
      expect(String(section.vars?.RAZORPAY_KEY_ID), name).toMatch(/^(rzp_(live|test)_\w+|REPLACE-ME.*)$/);
      expect(section.secrets?.required, name).toEqual(
        expect.arrayContaining(["RAZORPAY_KEY_SECRET", "RAZORPAY_WEBHOOK_SECRET"]),
      );
    }
  });
});
