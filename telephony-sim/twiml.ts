// Reading the TwiML our Worker answers a call with, as Twilio (the local provider, and the worker
// tests playing Twilio's side) hears it. No Node APIs: the workerd tests read it too.

/** Text and attribute values of the XML our Worker writes (TwiML), entities decoded. */
function xmlText(text: string): string {
  const named: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (entity, body: string) => {
    if (body.startsWith("#x")) return String.fromCodePoint(Number.parseInt(body.slice(2), 16));
    if (body.startsWith("#")) return String.fromCodePoint(Number(body.slice(1)));
    return named[body] ?? entity;
  });
}

/** What the call's TwiML asks: the sentences said (those inside its Gather first), and where a key goes. */
export function readTwiml(xml: string): { spoken: string[]; prompt: string[]; gather: { action: string } | null } {
  const says = (text: string) =>
    [...text.matchAll(/<Say\b[^>]*>([\s\S]*?)<\/Say>/g)].map((match) => xmlText(match[1]!));
  const gather = /<Gather\b([^>]*)>([\s\S]*?)<\/Gather>/.exec(xml);
  const action = gather ? /\baction="([^"]*)"/.exec(gather[1]!)?.[1] : undefined;
  return {
    spoken: says(xml),
    prompt: gather ? says(gather[2]!) : [],
    gather: action ? { action: xmlText(action) } : null,
  };
}
