import { integer } from "drizzle-orm/sqlite-core";

/** Milliseconds since the epoch; every timestamp in D1 is one of these. */
export const timestamp = (name: string) => integer(name, { mode: "number" });
