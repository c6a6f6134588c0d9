// Reading a posted form's fields: pure, so a page's form mappers (and their tests) use it
// without the server's modules.

/** One text field of a form, or "" when it is missing or a file. */
export function field(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}
