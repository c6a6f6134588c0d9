import { integer } from "drizzle-orm/sqlite-core";

/** Milliseconds since the epoch; every timestamp in D1 is one of these. */
export const timestamp = (name: string) => integer(name, { mode: "number" });

/** A table's own id, counted up by SQLite and never reused (AUTOINCREMENT). */
export const autoIncrementId = () => integer("id").primaryKey({ autoIncrement: true });
