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
            // React with React Router as one file, and zod as one, instead of five pieces: on a
            // phone's slow line every request waits its turn and pays a round trip (400 ms on
            // slow 3G). Everything else is split by route as usual (docs/benchmarks.md).
            codeSplitting: {
              groups: [
                { name: "react", test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/, priority: 2 },
                { name: "zod", test: /node_modules[\\/]zod[\\/]|common[\\/]zod-mini\.ts$/, priority: 1 },
              ],
            },
          },
        },
      },
    },
  },
});
