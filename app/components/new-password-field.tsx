// A new password (the change, a reset by a code), typed twice on those pages, held to the
// server's limits. Apart from ./field.tsx, which every farmer's page loads.
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../../common/constants.ts";
import { Field } from "./field.tsx";

export function NewPasswordField({ name, label }: { name: string; label: string }) {
  return (
    <Field label={label}>
      <input
        name={name}
        type="password"
        autoComplete="new-password"
        minLength={PASSWORD_MIN_LENGTH}
        maxLength={PASSWORD_MAX_LENGTH}
        required
      />
    </Field>
  );
}
