import { type AnySQLiteColumn, integer } from "drizzle-orm/sqlite-core";

/** Milliseconds since the epoch; every timestamp in D1 is one of these. */
export const timestamp = (name: string) => integer(name, { mode: "number" });

/** A table's own id, counted up by SQLite and never reused (AUTOINCREMENT). */
export const autoIncrementId = () => integer("id").primaryKey({ autoIncrement: true });

type OwnerColumn = {
  notNull(): { references(owner: () => AnySQLiteColumn, actions: { onDelete: "cascade" }): unknown };
};

/** A column naming the row's owner (an account, a box): the row goes when its owner is deleted. */
export function ownedBy<Column extends OwnerColumn>(column: Column, owner: () => AnySQLiteColumn) {
  return column.notNull().references(owner, { onDelete: "cascade" }) as ReturnType<Column["notNull"]>;
}
