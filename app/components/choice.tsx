// One option of a fieldset of choices (className "choices"), drawn as a card that is marked
// while chosen: the radio button or checkbox, its words, then anything after them (a badge).
import type { ReactNode } from "react";

export function Choice({
  type,
  name,
  value,
  checked,
  onChange,
  label,
  children,
}: {
  type: "radio" | "checkbox";
  name: string;
  value: string;
  checked: boolean;
  onChange: () => void;
  label: ReactNode;
  children?: ReactNode;
}) {
  return (
    <label className={`choice ${checked ? "selected" : ""}`}>
      <input type={type} name={name} value={value} checked={checked} onChange={onChange} />
      <span className="choice-label">{label}</span>
      {children}
    </label>
  );
}
