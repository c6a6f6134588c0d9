// One fact of an admin card's list (<dl className="facts">): its name, then its value.
import type { ReactNode } from "react";

export function Fact({
  label,
  testId,
  className,
  translate,
  children,
}: {
  label: ReactNode;
  /** On the value, for the specs. */
  testId?: string;
  className?: string;
  /** "no" for an identifier (IMEI, chip id) a browser must not translate. */
  translate?: "no";
  children: ReactNode;
}) {
  return (
    <div>
      <dt>{label}</dt>
      <dd className={className} data-testid={testId} translate={translate}>
        {children}
      </dd>
    </div>
  );
}
