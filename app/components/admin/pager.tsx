// Previous / page N of M / Next under an admin list (SPEC §2: shown only when there is more
// than one page). The disabled ends stay in place so the middle text does not jump.
import { Link } from "react-router";
import { useAdminT } from "../../i18n/admin.ts";

export function Pager({
  page,
  totalPages,
  label,
  linkTo,
}: {
  page: number;
  totalPages: number;
  /** Names the list the pager belongs to, for screen readers. */
  label: string;
  linkTo: (page: number) => string;
}) {
  const t = useAdminT();
  const end = (target: number, enabled: boolean, text: string, rel: "prev" | "next") =>
    enabled ? (
      <Link to={linkTo(target)} className="button small" rel={rel}>
        {text}
      </Link>
    ) : (
      <span className="button small" aria-disabled="true">
        {text}
      </span>
    );
  return (
    <nav className="pager" aria-label={label} data-testid="pager">
      {end(page - 1, page > 1, t("admin.logs.previous"), "prev")}
      <span>{t("admin.logs.pageOf", { page, pages: totalPages })}</span>
      {end(page + 1, page < totalPages, t("admin.logs.next"), "next")}
    </nav>
  );
}
