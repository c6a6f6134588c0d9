import type { AdminMessageKey } from "./admin-en.ts";

export const adminHi: Record<AdminMessageKey, string> = {
  "admin.title": "सिंचाई एडमिन",
};
