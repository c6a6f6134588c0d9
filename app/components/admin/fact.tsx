// One fact of an admin card's list (<dl className="facts">): its name, then its value.
import type { ReactNode } from "react";

export function Fact({
  label,
  testId,
  className,
  translate,
  wide,
  children,
}: {
  label: ReactNode;
  /** On the value, for the specs. */
  testId?: string;
  className?: string;
  /** "no" for an identifier (IMEI, chip id) a browser must not translate. */
  translate?: "no";
  /** Across both columns, for a value that is a list. */
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <div className={wide ? "fact-wide" : undefined}>
      <dt>{label}</dt>
      <dd className={className} data-testid={testId} translate={translate}>
        {children}
      </dd>
    </div>
  );
}
