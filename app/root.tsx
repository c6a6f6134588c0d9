import { useEffect, useState } from "react";
import {
  isRouteErrorResponse,
  Link,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  type ShouldRevalidateFunctionArgs,
  useMatches,
  useRouteLoaderData,
} from "react-router";
import { dictionaries } from "../common/i18n/dictionaries.ts";
import { languageOf } from "../worker/services/page-request.ts";
import type { Route } from "./+types/root";
import { ERROR_PAGE_WORDS, errorPageLanguage } from "./error-page-words.ts";
import { useLanguage } from "./i18n/i18n.ts";
import { registerServiceWorker, reloadKeptCopyWhenOnline } from "./offline/service-worker.ts";
import stylesheet from "./styles/app.css?url";
import noScriptFont from "./styles/no-script-font.css?url";

/** A route whose handle says `hydrate: false` is sent as plain HTML, without any script. */
export type RouteHandle = { hydrate?: boolean };

// `precedence` makes React put the stylesheet before the modulepreload links it hoists into
// <head>, so a browser asks for the page's only render-blocking file first instead of after
// ~120 KB of JavaScript (docs/benchmarks.md, Lighthouse).
export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: stylesheet, precedence: "default" }];

export function loader({ request }: Route.LoaderArgs) {
  const language = languageOf(request);
  // The reader's dictionary travels with the page's data instead of in its JavaScript.
  return { language, messages: dictionaries[language] };
}

/**
 * Only the language switch changes what the root loader says; a motor command or a schedule
 * save re-sending the whole dictionary would cost a phone on 2G a few seconds for nothing.
 */
export function shouldRevalidate({ formAction, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formAction && formAction !== "/language") return false;
  return defaultShouldRevalidate;
}

export function Layout({ children }: { children: React.ReactNode }) {
  const language = useLanguage();
  const hydrate = !useMatches().some((match) => (match.handle as RouteHandle | undefined)?.hydrate === false);
  const fontLater = useFontAfterScript(hydrate);
  return (
    <html lang={language} data-font-later={fontLater ? "" : undefined}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#1f6f43" />
        {/* No icon file: without this every first visit also asks for /favicon.ico (a 404, and
            one more round trip on a slow line). */}
        <link rel="icon" href="data:," />
        {/* Installable in the reader's language (public/manifest.*.webmanifest). */}
        <link rel="manifest" href={`/manifest.${language}.webmanifest`} />
        <link rel="apple-touch-icon" href="/icons/icon-192.png" />
        <Meta />
        <Links />
        {fontLater && (
          <noscript>
            <link rel="stylesheet" href={noScriptFont} />
          </noscript>
        )}
      </head>
      <body>
        {children}
        {hydrate && (
          <>
            <ScrollRestoration />
            <Scripts />
          </>
        )}
      </body>
    </html>
  );
}

/**
 * On a page with script, the Hindi font is asked for once React has taken over the page: on a
 * slow line its 49 KB would otherwise share the line with the scripts the switch waits for (about
 * a second of 3G: docs/benchmarks.md, "The phone: its JavaScript and hydration"). The first paint
 * uses the phone's own Devanagari font either way (the font is `swap`), and a page without
 * script, or a browser without it (`<noscript>`, styles/no-script-font.css), asks for it at once.
 */
function useFontAfterScript(hydrate: boolean): boolean {
  const [later, setLater] = useState(hydrate);
  useEffect(() => setLater(false), []);
  return later;
}

export default function App() {
  // Vite's dev server has no service worker to offer (public/sw.js caches built assets).
  useEffect(() => {
    if (import.meta.env.PROD) registerServiceWorker();
    reloadKeptCopyWhenOnline();
  }, []);
  return <Outlet />;
}

/** What browsers say when a fetch never reached the server ("Failed to fetch", Firefox's "NetworkError when attempting to fetch resource.", Safari's "Load failed"). */
const NETWORK_FAILURE = /fetch|Load failed/;

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const rootData = useRouteLoaderData<typeof loader>("root");
  const words =
    ERROR_PAGE_WORDS[errorPageLanguage(rootData?.language, typeof document === "undefined" ? "" : document.cookie)];
  // A tap on a link with no network: the next page's data never came. Not "something went
  // wrong": the farmer is told why, and led to the page the phone keeps (a full load, which the
  // service worker answers).
  const offline =
    (error instanceof TypeError && NETWORK_FAILURE.test(error.message)) ||
    (typeof window !== "undefined" && !window.navigator.onLine);
  if (offline) {
    return (
      <main className="page narrow" data-testid="offline-page">
        <h1>{words.pageNotOpened}</h1>
        <p>
          <a href="/motor-control" className="button primary">
            {words.openDashboard}
          </a>
        </p>
      </main>
    );
  }
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  if (!notFound) console.error(error);
  return (
    <main className="page narrow">
      <h1>{words.title}</h1>
      <p>{notFound ? words.notFound : words.generic}</p>
      <p>
        <Link to="/">{words.home}</Link>
      </p>
    </main>
  );
}
