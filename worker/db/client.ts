import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema.ts";

function createDb(d1: D1Database) {
  return drizzle(d1, { schema });
}

export type Db = ReturnType<typeof createDb>;

/**
 * One drizzle database per D1 binding (or per request's counting wrapper of it), made the first
 * time it is asked for: making one works out the schema's relations afresh, about 50 µs, and the
 * hub asks at every log flush, a Worker's call often more than once.
 */
const databases = new WeakMap<D1Database, Db>();

export function getDb(d1: D1Database): Db {
  let db = databases.get(d1);
  if (!db) {
    db = createDb(d1);
    databases.set(d1, db);
  }
  return db;
}
