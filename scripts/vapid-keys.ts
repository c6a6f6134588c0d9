// `node scripts/vapid-keys.ts`: a new VAPID key pair for production Web Push, printed once.
// Put each into the environment's Worker secrets (docs/operations.md, "Secrets"); keep the same pair for good, or every
// browser's alert subscription stops working (browsers subscribed with the public key).
import { generateVapidKeys } from "./lib/vapid.ts";

const keys = generateVapidKeys();
console.log(`VAPID_PUBLIC_KEY=${keys.publicKey}
VAPID_PRIVATE_KEY=${keys.privateKey}

npx wrangler secret put VAPID_PUBLIC_KEY --env <staging|production>    # paste the public key
npx wrangler secret put VAPID_PRIVATE_KEY --env <staging|production>   # paste the private key`);
