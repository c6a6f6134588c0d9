// A farmer whose box is not linked yet learns what to do next, and whom to call.
import { CONTACT } from "../../contact.ts";
import { useT } from "../../i18n/i18n.ts";

export function NoDevicePanel({ mobileNo }: { mobileNo: string }) {
  const t = useT();
  const whatsapp = `${CONTACT.whatsapp}?text=${encodeURIComponent(t("noDevice.whatsappText", { mobileNo }))}`;
  return (
    <section className="card no-device" data-testid="no-device" aria-labelledby="no-device-title">
      <h2 id="no-device-title">{t("noDevice.title")}</h2>
      <p>{t("motor.noDevice")}</p>
      <ol>
        <li>{t("noDevice.stepId")}</li>
        <li>{t("noDevice.stepContact")}</li>
        <li>{t("noDevice.stepWait")}</li>
      </ol>
      {/* The other way a box comes: an installer fitting it links it with the code this phone gets. */}
      <p>{t("noDevice.stepInstaller")}</p>
      <div className="switch-pair">
        <a className="button primary" href={`tel:${CONTACT.tel}`} data-testid="no-device-call">
          {t("noDevice.call", { phone: CONTACT.phone })}
        </a>
        <a
          className="button"
          href={whatsapp}
          target="_blank"
          rel="noopener noreferrer"
          data-testid="no-device-whatsapp"
        >
          {t("noDevice.whatsapp")}
        </a>
      </div>
    </section>
  );
}
