// What an admin page shows when it cannot render (SPEC §8's messages), inside the admin shell.
import { isRouteErrorResponse } from "react-router";
import type { AdminMessageKey } from "../../../common/i18n/admin-en.ts";
import { useAdminT } from "../../i18n/admin.ts";

export function AdminError({ error, message }: { error: unknown; message: AdminMessageKey }) {
  const t = useAdminT();
  if (!isRouteErrorResponse(error)) console.error(error);
  return (
    <main className="page admin-page">
      <h1>{t("admin.error.title")}</h1>
      <p className="message error" role="alert">
        {t(message)}
      </p>
    </main>
  );
}

/** A page's own message for data it could not load. */
export function LoadFailure({ message }: { message: AdminMessageKey }) {
  const t = useAdminT();
  return (
    <p className="message error" role="alert" data-testid="load-error">
      {t(message)}
    </p>
  );
}
