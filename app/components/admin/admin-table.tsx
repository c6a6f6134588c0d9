// Every admin list is the same table: its column names on top (also each cell's label when a
// narrow screen stacks the cells, see admin.css), one row per entry below.
import type { ReactNode } from "react";
import type { AdminMessageKey } from "../../../common/i18n/admin-en.ts";
import type { MessageKey } from "../../../common/i18n/catalogue.ts";
import { useAdminT } from "../../i18n/admin.ts";

export function AdminTable({
  columns,
  testId,
  compact = false,
  children,
}: {
  columns: readonly (AdminMessageKey | MessageKey)[];
  testId?: string;
  /** Smaller text and padding, for wide tables and dialogs. */
  compact?: boolean;
  children: ReactNode;
}) {
  const t = useAdminT();
  return (
    <table className={compact ? "admin-table compact" : "admin-table"} data-testid={testId}>
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column}>{t(column)}</th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}
