// What a sign-in page (the landing page, the admin login) says after a redirect to it: a
// logout the person asked for is good news; a session that ran out is not (SPEC §2).
export type SignedOut = "loggedOut" | "sessionExpired";

/** Why the request's address came here signed out, if it says. */
export function signedOutOf(request: Request): SignedOut | null {
  const params = new URL(request.url).searchParams;
  return params.has("loggedOut") ? "loggedOut" : params.get("session") === "expired" ? "sessionExpired" : null;
}

export function SignedOutNotice({ reason, text, testId }: { reason: SignedOut; text: string; testId: string }) {
  return (
    <p className={`message ${reason === "sessionExpired" ? "warning" : "success"}`} role="status" data-testid={testId}>
      {text}
    </p>
  );
}
