// Zod's tree-shakable build, for the schemas the browser parses on the pages a farmer's phone
// loads first (the realtime socket, the pump state): the same checks as zod's classic API for a
// fifth of its bytes (docs/benchmarks.md). The eval probe is turned off here too (common/zod.ts
// says why); both builds share that one setting.
import * as z from "zod/mini";

z.config({ jitless: true });

export { z };
