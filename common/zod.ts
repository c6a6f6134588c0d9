// The one zod every module imports. Zod probes `new Function("")` when it builds an object
// schema, to decide whether it may compile fast parsers; the probe's error is caught, but a
// browser under our CSP (no 'unsafe-eval', docs/security.md) still reports it as a violation.
// jitless skips the probe. It must be set before the first z.object() is built, which is why
// it lives here rather than in an entry module: every schema module imports this one first.
import { z } from "zod";

z.config({ jitless: true });

export { z };
