// Lighthouse mobile (its defaults: simulated Slow 4G and 4× CPU slowdown, a Moto G-class
// screen) with Debian's chromium, on the landing page, /login and a signed-in /motor-control
// with its box online, all served by the local production build.
//
// Local workerd sends assets uncompressed while Cloudflare's edge compresses them; Lighthouse's
// simulation uses the bytes it saw, so these runs pay for uncompressed JS over Slow 4G.
// `compressed` in the result says which it was (docs/benchmarks.md).
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../scripts/lib/chromium.ts";
import { logInFarmers, startFleet } from "./fleet.ts";

export type LighthouseRow = {
  page: string;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  performance: number;
  accessibility: number;
  transferKb: number;
};

export async function measureLighthouse(runs: number): Promise<{ rows: LighthouseRow[]; compressed: boolean }> {
  const fleet = await startFleet(1);
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: ["--headless=new", ...CHROMIUM_ARGS],
  });
  try {
    const [token] = await logInFarmers(fleet.worker, fleet.mobileNos);
    const base = fleet.worker.url;
    const compressed =
      (await fetch(`${base}/login`, { headers: { "Accept-Encoding": "gzip, br" } })).headers.get("content-encoding") !==
      null;
    const pages: { page: string; url: string; headers?: Record<string, string> }[] = [
      { page: "landing /", url: `${base}/` },
      { page: "/login", url: `${base}/login` },
      { page: "/motor-control", url: `${base}/motor-control`, headers: { Cookie: `sinchai_session=${token}` } },
    ];
    const rows: LighthouseRow[] = [];
    for (const { page, url, headers } of pages) {
      const results: LighthouseRow[] = [];
      for (let run = 0; run < runs; run++) {
        const result = await lighthouse(url, {
          port: chrome.port,
          output: "json",
          logLevel: "error",
          onlyCategories: ["performance", "accessibility"],
          ...(headers ? { extraHeaders: headers } : {}),
        });
        const lhr = result?.lhr;
        if (!lhr) throw new Error(`Lighthouse gave no result for ${url}`);
        if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.message}`);
        results.push({
          page,
          lcpMs: Math.round(lhr.audits["largest-contentful-paint"]!.numericValue ?? NaN),
          tbtMs: Math.round(lhr.audits["total-blocking-time"]!.numericValue ?? NaN),
          cls: Math.round((lhr.audits["cumulative-layout-shift"]!.numericValue ?? NaN) * 1000) / 1000,
          performance: Math.round((lhr.categories.performance!.score ?? NaN) * 100),
          accessibility: Math.round((lhr.categories.accessibility!.score ?? NaN) * 100),
          transferKb: Math.round((lhr.audits["total-byte-weight"]!.numericValue ?? NaN) / 1024),
        });
      }
      // The median run by LCP, as Lighthouse's own docs advise for noisy single runs.
      results.sort((a, b) => a.lcpMs - b.lcpMs);
      rows.push(results[Math.floor(results.length / 2)]!);
    }
    return { rows, compressed };
  } finally {
    chrome.kill();
    await fleet.stop();
  }
}
