// What every page action reads first: the posted form, and whether it came from our pages.
import { isSameOriginRequest } from "../worker/services/page-request.ts";

/** A body that is not a form (or is cut off) reads as an empty form: bad input is a 400, never a 500. */
export async function readForm(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    return new FormData();
  }
}

/** Cookie-authenticated writes come from our own pages only (the API's rule: worker/auth/same-origin.ts). */
export { isSameOriginRequest };

/** One text field of a form, or "" when it is missing or a file. */
export function field(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}
