// The box's last debug lines (`debug_lines`); only the debug console (debug-lines.ts) reads it.
import { DEBUG_LINE_LIMIT } from "../../common/hub-contract.ts";

export class DebugLinesTable {
  readonly #sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.#sql = sql;
  }

  add(at: number, line: string): void {
    this.#sql.exec("INSERT INTO debug_lines (at, line) VALUES (?, ?)", at, line);
    this.#sql.exec("DELETE FROM debug_lines WHERE id <= (SELECT MAX(id) FROM debug_lines) - ?", DEBUG_LINE_LIMIT);
  }

  all(): { at: number; line: string }[] {
    return this.#sql.exec<{ at: number; line: string }>("SELECT at, line FROM debug_lines ORDER BY id").toArray();
  }
}
