/** The languages every page, message and alert is written in. Hindi first: most farmers read it first. */
export type Language = "hi" | "en";
