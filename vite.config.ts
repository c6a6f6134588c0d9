import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [cloudflare({ viteEnvironment: { name: "ssr" } }), reactRouter()],
  environments: {
    client: {
      build: {
        rolldownOptions: {
          output: {
            // A route folder's module (routes/motor-control/route.tsx) is named after its folder,
            // as a one-file route module is after its file: not four files called "route".
            entryFileNames: (chunk) =>
              `assets/${/[\\/]routes[\\/]([^\\/]+)[\\/]route\.tsx/.exec(chunk.facadeModuleId ?? "")?.[1] ?? "[name]"}-[hash].js`,
            // Fewer, larger files for the farmer's pages: on a phone's slow line every request
            // waits its turn and pays a round trip (400 ms on slow 3G), and each small file pays
            // its own gzip header and import glue. React with React Router is one file and zod
            // one; "shell" is what every page uses (words, language switch, toast, fields);
            // "live" is the pump page's live view. A group also takes in the modules its own
            // import that no other group claims, so the small pieces several pages share are
            // named on their own: without that, the schedule page would load the live view
            // for its icons. Route modules stay split by route (docs/benchmarks.md).
            codeSplitting: {
              groups: [
                { name: "react", test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/, priority: 2 },
                { name: "zod", test: /node_modules[\\/]zod[\\/]|common[\\/]zod-mini\.ts$/, priority: 1 },
                { name: "icons", test: /app[\\/]components[\\/]icons\.tsx$/, priority: 1 },
                { name: "constants", test: /common[\\/]constants\.ts$/, priority: 1 },
                {
                  name: "realtime-protocol",
                  test: /common[\\/](device-enums|pump-state|realtime-protocol)\.ts$/,
                  priority: 1,
                },
                {
                  name: "shell",
                  test: /app[\\/](format|contact)\.ts$|app[\\/]i18n[\\/](catalogue|i18n)\.ts$|app[\\/]components[\\/](language-switch|toast|field)\.tsx$/,
                },
                {
                  name: "live",
                  test: /app[\\/]realtime[\\/]|app[\\/]components[\\/]pump-state-view\.tsx$|common[\\/](signal|api-responses[\\/]devices)\.ts$/,
                },
              ],
            },
          },
        },
      },
    },
  },
});
