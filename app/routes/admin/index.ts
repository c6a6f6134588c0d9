// /admin: the shell has no page of its own; the dashboard is the admin's home.
import { redirect } from "react-router";

export function loader() {
  return redirect("/admin/dashboard");
}
