import { Link, redirect } from "react-router";
import { formatRupees } from "../../common/i18n/format.ts";
import { PLANS } from "../../common/plans.ts";
import { LanguageSwitch } from "../components/language-switch.tsx";
import { SignedOutNotice, signedOutOf } from "../components/signed-out-notice.tsx";
import { CONTACT } from "../contact.ts";
import { type MessageKey, useLanguage, useT } from "../i18n/i18n.ts";
import type { RouteHandle } from "../root.tsx";
import { optionalUser } from "../session.server.ts";
import type { Route } from "./+types/landing";

/** Plain HTML, no client script: it has to open fast on a 2G phone. */
export const handle: RouteHandle = { hydrate: false };

export const meta: Route.MetaFunction = () => [
  { title: "Sinchai · सिंचाई" },
  { name: "description", content: "Switch your irrigation pump on and off from your phone." },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  if (await optionalUser(request, context)) throw redirect("/motor-control");
  return { signedOut: signedOutOf(request) };
}

/** SPEC §1: the two controllers, their prices and the starters they work with. */
const DEVICES: { name: MessageKey; price: number; starters: MessageKey }[] = [
  { name: "landing.device1.name", price: 4000, starters: "landing.device1.starters" },
  { name: "landing.device3.name", price: 5000, starters: "landing.device3.starters" },
];

const INCLUDED: MessageKey[] = [
  "landing.included.sim",
  "landing.included.connectivity",
  "landing.included.warranty",
  "landing.included.replacement",
  "landing.included.motors",
];

const TESTIMONIALS: { quote: MessageKey; name: MessageKey }[] = [
  { quote: "landing.testimonial1.quote", name: "landing.testimonial1.name" },
  { quote: "landing.testimonial2.quote", name: "landing.testimonial2.name" },
  { quote: "landing.testimonial3.quote", name: "landing.testimonial3.name" },
];

const FAQ: { question: MessageKey; answer: MessageKey }[] = [
  { question: "landing.faq.plan.q", answer: "landing.faq.plan.a" },
  { question: "landing.faq.network.q", answer: "landing.faq.network.a" },
  { question: "landing.faq.weather.q", answer: "landing.faq.weather.a" },
  { question: "landing.faq.motors.q", answer: "landing.faq.motors.a" },
];

export default function Landing({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const language = useLanguage();
  const orderText = encodeURIComponent(t("landing.order.chatText"));
  return (
    <main className="page landing">
      {/* Nearly invisible on purpose (SPEC §2): the way in for admins. */}
      {/* biome-ignore lint/a11y/useAnchorContent: named by its aria-label, with no visible content by design */}
      <a href="/admin/login" className="admin-dot" aria-label={t("landing.adminLink")} />
      <header className="auth-header">
        <span className="brand">{t("app.name")}</span>
        <LanguageSwitch />
      </header>
      {loaderData.signedOut && (
        <SignedOutNotice
          reason={loaderData.signedOut}
          text={t(`landing.${loaderData.signedOut}`)}
          testId="landing-notice"
        />
      )}
      <section className="hero">
        <h1>{t("app.name")}</h1>
        <p>{t("app.tagline")}</p>
        <div className="actions">
          <Link to="/login" className="button primary">
            {t("landing.login")}
          </Link>
          <Link to="/register" className="button">
            {t("landing.register")}
          </Link>
        </div>
      </section>

      <section aria-labelledby="devices-title">
        <h2 id="devices-title">{t("landing.devices")}</h2>
        <div className="grid-2">
          {DEVICES.map((device) => (
            <article key={device.name} className="card">
              <h3>{t(device.name)}</h3>
              <p className="price">{formatRupees(device.price, language)}</p>
              <p>{t(device.starters)}</p>
            </article>
          ))}
        </div>
      </section>

      <section className="card" aria-labelledby="included-title">
        <h2 id="included-title">{t("landing.included")}</h2>
        <ul className="ticks">
          {INCLUDED.map((item) => (
            <li key={item}>{t(item)}</li>
          ))}
        </ul>
      </section>

      <section className="card" aria-labelledby="order-title">
        <h2 id="order-title">{t("landing.order")}</h2>
        <p>{t("landing.order.text")}</p>
        <div className="actions start">
          <a className="button primary" href={`${CONTACT.whatsapp}?text=${orderText}`} rel="noopener">
            {t("landing.order.chat")}
          </a>
          <a className="button" href={`tel:${CONTACT.tel}`}>
            {t("landing.order.call", { phone: CONTACT.phone })}
          </a>
        </div>
      </section>

      <section className="card" aria-labelledby="support-title">
        <h2 id="support-title">{t("landing.support")}</h2>
        <p>{t("landing.support.install")}</p>
        <p>{t("landing.support.help")}</p>
      </section>

      <section aria-labelledby="testimonials-title">
        <h2 id="testimonials-title">{t("landing.testimonials")}</h2>
        <div className="grid-3">
          {TESTIMONIALS.map((item) => (
            <figure key={item.name} className="card quote">
              <blockquote>{t(item.quote)}</blockquote>
              <figcaption>{t(item.name)}</figcaption>
            </figure>
          ))}
        </div>
        <p className="muted small-text">{t("landing.testimonials.sample")}</p>
      </section>

      <section className="card" aria-labelledby="faq-title">
        <h2 id="faq-title">{t("landing.faq")}</h2>
        {FAQ.map((item) => (
          <details key={item.question}>
            <summary>{t(item.question)}</summary>
            <p>{t(item.answer, { price: formatRupees(PLANS["1year"].amount, language) })}</p>
          </details>
        ))}
      </section>

      <section className="card" aria-labelledby="contact-title">
        <h2 id="contact-title">{t("landing.contact")}</h2>
        <dl className="contact">
          <dt>{t("landing.contact.phone")}</dt>
          <dd>
            <a href={`tel:${CONTACT.tel}`}>{CONTACT.phone}</a>
          </dd>
          <dt>{t("landing.contact.whatsapp")}</dt>
          <dd>
            <a href={CONTACT.whatsapp} rel="noopener">
              {CONTACT.phone}
            </a>
          </dd>
          <dt>{t("landing.contact.email")}</dt>
          <dd>
            <a href={`mailto:${CONTACT.email}`} translate="no">
              {CONTACT.email}
            </a>
          </dd>
          <dt>{t("landing.contact.hours")}</dt>
          <dd>{t("landing.contact.hoursText", { from: CONTACT.hours.from, to: CONTACT.hours.to })}</dd>
        </dl>
      </section>
      <footer className="shell-footer">{t("shell.footer")}</footer>
    </main>
  );
}
