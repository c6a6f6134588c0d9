// A form's field as every form draws it: the label's words above the control they name (the
// label wraps the control, so a tap on the words focuses it).
import type { ReactNode } from "react";

export function Field({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: the control is `children`, inside the label
    <label className="field">
      <span>{label}</span>
      {children}
    </label>
  );
}
