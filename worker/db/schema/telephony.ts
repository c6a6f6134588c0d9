// What the telephony providers told us, and the calls to the voice menu.
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { users } from "./accounts.ts";
import { autoIncrementId, ownedBy, timestamp } from "./columns.ts";

/**
 * Every verified webhook of a telephony provider, once (worker/api/telephony.ts): the event as
 * read by the provider's adapter (common/telephony-events.ts) under its replay key, which a
 * replayed or retried delivery repeats and the unique index refuses. Kept 30 days
 * (worker/scheduled.ts); handlers refuse what is older than that by its own dates.
 */
export const telephonyEvents = sqliteTable(
  "telephony_events",
  {
    id: autoIncrementId(),
    provider: text("provider", { enum: ["twilio", "exotel"] }).notNull(),
    replayKey: text("replay_key").notNull(),
    type: text("type").notNull(),
    event: text("event").notNull(),
    receivedAt: timestamp("received_at").notNull(),
  },
  (table) => [
    uniqueIndex("telephony_events_replay_idx").on(table.provider, table.replayKey),
    index("telephony_events_received_idx").on(table.receivedAt),
  ],
);

/**
 * A call to the voice menu (worker/phone-control/voice-menu.ts), from the moment it is answered:
 * whose call it is (the verified account its number belongs to), the pump it is about once
 * chosen, where the menu is (`step`, and `keys`, how many keys it has taken: a key is taken only
 * for the step it answers), and what the last key did, which Exotel's flow reads back in a
 * greeting. Kept 30 days, as telephony events are.
 */
export const phoneMenuCalls = sqliteTable(
  "phone_menu_calls",
  {
    provider: text("provider", { enum: ["twilio", "exotel"] }).notNull(),
    callId: text("call_id").notNull(),
    userId: ownedBy(integer("user_id"), () => users.id),
    /** Null until chosen, for a caller with several pumps. No foreign key: a call outlives nothing it needs. */
    deviceId: text("device_id"),
    language: text("language", { enum: ["hi", "en"] }).notNull(),
    step: text("step", { enum: ["pump", "main", "minutes", "done"] }).notNull(),
    keys: integer("keys").notNull().default(0),
    /** What the call says next (the last key's outcome), as spoken text. */
    said: text("said"),
    createdAt: timestamp("created_at").notNull(),
    updatedAt: timestamp("updated_at").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.provider, table.callId] }),
    index("phone_menu_calls_created_idx").on(table.createdAt),
  ],
);

export type PhoneMenuCallRow = typeof phoneMenuCalls.$inferSelect;
