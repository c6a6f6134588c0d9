// `npm run dev` runs this first, so hot-reload mode works on a fresh clone too.
import { DEFAULT_PERSIST_DIR } from "./lib/local-d1.ts";
import { prepareLocal } from "./lib/prepare-local.ts";
import { DEMO_ADMIN, DEMO_USER } from "./lib/seed.ts";

await prepareLocal(DEFAULT_PERSIST_DIR);
console.log(`Local D1 ready. Farmer ${DEMO_USER.mobileNo} / ${DEMO_USER.password}, admin ${DEMO_ADMIN.mobileNo} / ${DEMO_ADMIN.password}.
Demo pump: npm run sim -- --url ws://localhost:5173/api/device/connect`);
