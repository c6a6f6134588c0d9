// What a page reads from a request, or adds to its answer, by the same rules as the Worker's
// API: the reader's language, whether a post comes from our own pages, the page's
// Content-Security-Policy. The pages' door to worker/http for these (docs/architecture.md).
export { isSameOriginRequest } from "../auth/same-origin.ts";
export { languageOf } from "../http/request-language.ts";
export { pageContentSecurityPolicy } from "../http/security-headers.ts";
