// A statement of the changes that the Worker sends as a D1 batch and `npm run device` writes out
// with its values (common/access-change-sql.ts, common/first-box-sql.ts).

/** A value a statement binds. */
export type SqlValue = string | number | null;

/** One statement with numbered parameters (?1 is `params[0]`), each used at least once. */
export type SqlStatement = { sql: string; params: SqlValue[] };
