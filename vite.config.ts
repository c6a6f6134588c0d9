import { relative, resolve } from "node:path";
import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig, normalizePath, type Plugin } from "vite";

/**
 * Fails the browser's build when it would take in a module of the Worker (worker/) or of the
 * hub (durable-objects/): their code holds the server's rules, queries and secrets' handling, and
 * a page that imported one by mistake would ship it to every phone. React Router strips a route's
 * loader and action (and what only they import) from the browser's bundle, and refuses app's
 * `*.server.ts` modules there itself; what is left resolving a server folder is a component's own
 * import. Type-only imports (`import type`) are erased before anything resolves, so they pass.
 * Applied to the client environment only (the Worker's build takes these folders, of course).
 * tests/scripts/server-only-guard.test.ts builds a page that leaks one and sees the build fail.
 */
export function serverOnlyGuard(root: string = import.meta.dirname): Plugin {
  const serverFolders = ["worker", "durable-objects"].map((folder) => `${normalizePath(resolve(root, folder))}/`);
  return {
    name: "sinchai:server-only-guard",
    enforce: "pre",
    applyToEnvironment: (environment) => environment.name === "client",
    async resolveId(source, importer, options) {
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      const id = resolved ? normalizePath(resolved.id.split("?")[0]!) : "";
      if (serverFolders.some((folder) => id.startsWith(folder))) {
        const from = importer ? normalizePath(relative(root, importer.split("?")[0]!)) : "an entry";
        this.error(
          `${from} imports ${normalizePath(relative(root, id))}, which is server-only: the browser's bundle ` +
            "never takes worker/ or durable-objects/. Import types with `import type`, move what the page " +
            "needs to common/, or reach the server through a loader or an action calling worker/services/.",
        );
      }
      return resolved;
    },
  };
}

/**
 * Vite wraps every dynamic `import()` of the browser's build in a helper that first adds a
 * `<link rel="modulepreload">` for each file the imported one needs, and ships that helper (about
 * 0.7 KB gzip) in the importing file. The pages load their code on demand only where it waits for
 * a tap or for a part of the page few people see, and the files it needs are those the page
 * already has, so the helper would cost more than it saves on a slow line: the import runs as
 * written instead (`build.modulePreload: false` leaves the helper in place, with nothing to
 * preload). tests/e2e/page-weight.spec.ts holds the bytes.
 */
function plainDynamicImports(): Plugin {
  const helperId = "\0vite/preload-helper.js";
  return {
    name: "sinchai:plain-dynamic-imports",
    enforce: "pre",
    applyToEnvironment: (environment) => environment.name === "client",
    resolveId: (source) => (source === helperId ? helperId : undefined),
    load: (id) => (id === helperId ? "export const __vitePreload = (load) => load();" : undefined),
  };
}

export default defineConfig({
  plugins: [cloudflare({ viteEnvironment: { name: "ssr" } }), reactRouter(), serverOnlyGuard(), plainDynamicImports()],
  environments: {
    // The Worker's build is minified as the browser's is: every new isolate of the Worker and of
    // each hub parses the whole bundle before its first request (decision 043: 2,601 → 1,322 KiB,
    // 618 → 379 KiB gzip). Stack traces stay readable: the Cloudflare plugin writes the source
    // maps beside the bundle and wrangler uploads them by default (since 4.150).
    ssr: { build: { minify: true } },
    client: {
      build: {
        // No list of files to preload beside each dynamic import (see plainDynamicImports).
        modulePreload: false,
        rolldownOptions: {
          output: {
            // A route folder's module (routes/motor-control/route.tsx) is named after its folder,
            // as a one-file route module is after its file: not four files called "route".
            entryFileNames: (chunk) =>
              `assets/${/[\\/]routes[\\/]([^\\/]+)[\\/]route\.tsx/.exec(chunk.facadeModuleId ?? "")?.[1] ?? "[name]"}-[hash].js`,
            // Fewer, larger files for the farmer's pages: on a phone's slow line every request
            // waits its turn and pays a round trip (400 ms on slow 3G), and each small file pays
            // its own gzip header and import glue. What every page with script loads (React with
            // React Router, the client entry, the root and the shell: words, language switch,
            // toast, fields) is one file, the entry's own: a group that takes in the entry module
            // becomes the entry's file, and the bundler's runtime rides in it too; the root's
            // route module is left as a re-export of a few bytes, which React Router asks for by
            // name. zod is one file; "live" is the pump page's live view, with the checks of what
            // it reads (app/checks/). A group also takes in the modules its own import that no
            // other group claims, so the small pieces several pages share are named on their own:
            // without that, the schedule page would load the live view for its icons. Route
            // modules stay split by route (docs/benchmarks.md).
            codeSplitting: {
              groups: [
                // The stand-in for Vite's preload helper (plainDynamicImports) is one line: not a file of its own.
                {
                  name: "entry",
                  test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]|vite[\\/]preload-helper|[\\/]entry\.client\.tsx$|app[\\/]root\.tsx$|app[\\/](format|contact)\.ts$|app[\\/]i18n[\\/](catalogue|i18n)\.ts$|app[\\/]components[\\/](language-switch|toast|field)\.tsx$/,
                  priority: 2,
                },
                { name: "zod", test: /node_modules[\\/]zod[\\/]|common[\\/]zod-mini\.ts$/, priority: 1 },
                { name: "icons", test: /app[\\/]components[\\/]icons\.tsx$/, priority: 1 },
                { name: "constants", test: /common[\\/]constants\.ts$/, priority: 1 },
                {
                  name: "realtime-protocol",
                  test: /common[\\/](device-enums|pump-state|realtime-protocol)\.ts$/,
                  priority: 1,
                },
                {
                  name: "live",
                  test: /app[\\/]realtime[\\/]|app[\\/]checks[\\/]|app[\\/]components[\\/]pump-state-view\.tsx$|common[\\/]signal\.ts$/,
                },
              ],
            },
          },
        },
      },
    },
  },
});
