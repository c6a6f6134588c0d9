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

/** One text field of a form (./form-field.ts). */
export { field } from "./form-field.ts";
/** Cookie-authenticated writes come from our own pages only (the API's rule: worker/auth/same-origin.ts). */
export { isSameOriginRequest };
