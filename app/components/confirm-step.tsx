// The settings page's one confirm step (docs/decisions/025-weaker-protection-asks-first.md): a
// change the action holds until the owner says yes. The step's own small form posts the same
// again with its confirmation; it shows above the button the owner tapped, so it is brought into
// view. "Cancel" is a plain link back to the page without script; with it, the step just closes.
import { type ReactNode, useEffect, useRef } from "react";
import type { FetcherWithComponents } from "react-router";
import { useT } from "../i18n/i18n.ts";

export function ConfirmStep({
  step,
  Form,
  action,
  warning,
  testId,
  hidden,
  submit,
  onCancel,
  children,
}: {
  /** The step shown: a new one is brought into view again. */
  step: object;
  /** The card's fetcher's form, so the answer reaches the card. */
  Form: FetcherWithComponents<unknown>["Form"];
  action: string;
  warning: boolean;
  testId: string;
  /** What the form posts: the change again, with its confirmation. */
  hidden: Record<string, string>;
  submit: ReactNode;
  onCancel: () => void;
  /** What the change is, and the question. */
  children: ReactNode;
}) {
  const t = useT();
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    if (step) ref.current?.scrollIntoView({ block: "center" });
  }, [step]);
  return (
    <section ref={ref} className={`message ${warning ? "warning" : "info"}`} role="alert" data-testid={testId}>
      {children}
      <Form method="post" action={action} className="button-row">
        {Object.entries(hidden).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        {submit}
        <a
          href={action}
          className="button"
          onClick={(event) => {
            event.preventDefault();
            onCancel();
          }}
        >
          {t("dialog.cancel")}
        </a>
      </Form>
    </section>
  );
}
