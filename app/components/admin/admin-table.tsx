// Every admin list is the same table: its column names on top (also each cell's label when a
// narrow screen stacks the cells, see admin.css), one row per entry below; a list with nothing
// in it says so instead.
import type { ReactNode } from "react";
import type { AdminMessageKey } from "../../../common/i18n/admin-en.ts";
import type { MessageKey } from "../../../common/i18n/catalogue.ts";
import { useAdminT } from "../../i18n/admin.ts";

export function AdminTable<Row>({
  columns,
  rows,
  empty,
  testId,
  compact = false,
  footer,
  children,
}: {
  columns: readonly (AdminMessageKey | MessageKey)[];
  rows: readonly Row[];
  /** What the page says instead of the table when there are no rows; without it, an empty table. */
  empty?: AdminMessageKey;
  testId?: string;
  /** Smaller text and padding, for wide tables and dialogs. */
  compact?: boolean;
  /** A last row after the entries' (a total). */
  footer?: ReactNode;
  /** An entry's row. */
  children: (row: Row) => ReactNode;
}) {
  const t = useAdminT();
  if (empty && rows.length === 0) return <p className="muted">{t(empty)}</p>;
  return (
    <table className={compact ? "admin-table compact" : "admin-table"} data-testid={testId}>
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column}>{t(column)}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map(children)}
        {footer}
      </tbody>
    </table>
  );
}
