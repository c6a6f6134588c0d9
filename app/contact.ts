// How farmers reach Sinchai: shown on the landing page and in the user area's footer.
// Sample values for this build: replace them with the business's own before going live.
export const CONTACT = {
  /** Shown as written; dialled as `tel`. */
  phone: "+91 90000 12345",
  tel: "+919000012345",
  /** WhatsApp chat link (wa.me takes the number without "+"). */
  whatsapp: "https://wa.me/919000012345",
  email: "support@sinchai.in",
  /** Office hours, India time. */
  hours: { from: "9:00", to: "18:00" },
} as const;
