// Admin-area texts, kept apart so farmer pages never download them (see app/i18n/admin.ts).
export const adminEn = {
  "admin.title": "Sinchai Admin",
} as const;

export type AdminMessageKey = keyof typeof adminEn;
