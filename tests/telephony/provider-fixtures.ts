// What the adapters' tests hand them: a fetch that records each request and answers with a
// provider's documented answer, and configurations for both providers. The answers below are
// copies of the examples in the providers' documentation (ids made hexadecimal where the
// documentation writes XXXX), so a test that passes against them passes against the format.
import type { CallRequest, SmsRequest } from "../../worker/telephony/provider.ts";

/** The Hindi sign-in code SMS both adapters' tests send. */
export const HINDI_CODE_SMS = {
  to: "9876543210",
  template: "signInCode",
  language: "hi",
  values: { code: "042917" },
} satisfies SmsRequest<"signInCode">;

/** The Hindi dry-run alert call both adapters' tests place. */
export const HINDI_DRY_RUN_CALL = {
  to: "9876543210",
  language: "hi",
  kind: "dryRun",
  pumpName: "कुआँ",
  reference: { code: "stop:SNC-AB12CD34", placedAt: 1767225600000 },
} satisfies CallRequest;

export type RecordedRequest = { url: string; method: string; headers: Headers; form: URLSearchParams };

/** A fetch that records what it is asked and answers `status` with `body` as JSON. */
export function recordingFetch(status: number, body: unknown): { fetch: typeof fetch; requests: RecordedRequest[] } {
  const requests: RecordedRequest[] = [];
  const fake = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    requests.push({
      url: request.url,
      method: request.method,
      headers: request.headers,
      form: new URLSearchParams(await request.text()),
    });
    return Response.json(body, { status });
  };
  return { fetch: fake as typeof fetch, requests };
}

export const TWILIO_CONFIG = {
  accountSid: "AC0123456789abcdef0123456789abcdef",
  authToken: "twilio-fixture-auth-token",
  smsSender: "+918000000001",
  callerId: "+918000000001",
  apiBase: "https://api.twilio.com",
  webhookOrigin: "https://pump.example.in",
};

export const EXOTEL_CONFIG = {
  accountSid: "sinchai1",
  apiKey: "exotel-fixture-key",
  apiToken: "exotel-fixture-token",
  webhookSecret: "exotel-fixture-webhook-secret-0123456789abcdef",
  smsSender: "SINCHI",
  callerId: "08047112233",
  callFlowId: "926",
  dltEntityId: "1201159123456789012",
  dltTemplateIds: { "signInCode.hi": "1207161234567890123", "alertDryRun.en": "1207161234567890456" },
  apiBase: "https://api.in.exotel.com",
  webhookOrigin: "https://pump.example.in",
};

/** https://www.twilio.com/docs/messaging/api/message-resource#create-a-message-resource (response example) */
export const TWILIO_MESSAGE_CREATED = {
  account_sid: TWILIO_CONFIG.accountSid,
  api_version: "2010-04-01",
  body: "Hi there",
  date_created: "Thu, 24 Aug 2023 05:01:45 +0000",
  date_sent: "Thu, 24 Aug 2023 05:01:45 +0000",
  date_updated: "Thu, 24 Aug 2023 05:01:45 +0000",
  direction: "outbound-api",
  error_code: null,
  error_message: null,
  from: "+918000000001",
  num_media: "0",
  num_segments: "1",
  price: null,
  price_unit: null,
  messaging_service_sid: null,
  sid: "SM0123456789abcdef0123456789abcdef",
  status: "queued",
  subresource_uris: {
    media:
      "/2010-04-01/Accounts/AC0123456789abcdef0123456789abcdef/Messages/SM0123456789abcdef0123456789abcdef/Media.json",
  },
  to: "+919876543210",
  uri: "/2010-04-01/Accounts/AC0123456789abcdef0123456789abcdef/Messages/SM0123456789abcdef0123456789abcdef.json",
};

/** https://www.twilio.com/docs/voice/api/call-resource#create-a-call-resource (response example) */
export const TWILIO_CALL_CREATED = {
  account_sid: TWILIO_CONFIG.accountSid,
  answered_by: null,
  api_version: "2010-04-01",
  caller_name: null,
  date_created: "Tue, 31 Aug 2010 20:36:28 +0000",
  date_updated: "Tue, 31 Aug 2010 20:36:44 +0000",
  direction: "outbound-api",
  duration: "0",
  end_time: null,
  forwarded_from: null,
  from: "+918000000001",
  from_formatted: "+91 80000 00001",
  group_sid: null,
  parent_call_sid: null,
  phone_number_sid: "PN0123456789abcdef0123456789abcdef",
  price: null,
  price_unit: "USD",
  sid: "CA0123456789abcdef0123456789abcdef",
  start_time: null,
  status: "queued",
  to: "+919876543210",
  to_formatted: "+91 98765 43210",
  uri: "/2010-04-01/Accounts/AC0123456789abcdef0123456789abcdef/Calls/CA0123456789abcdef0123456789abcdef.json",
};

/** https://www.twilio.com/docs/usage/twilios-response#response-formats-exceptions (a 400 for a bad number) */
export const TWILIO_BAD_NUMBER = {
  code: 21211,
  message: "The 'To' number +9112345 is not a valid phone number.",
  more_info: "https://www.twilio.com/docs/errors/21211",
  status: 400,
};

/** https://developer.exotel.com/docs/sms-api/api-reference/sms-details (response example; send answers the same) */
export const EXOTEL_SMS_SENT = {
  SMSMessage: {
    Sid: "b6bbd1cda2ee1ec2f6f5c28d3dc8f176",
    AccountSid: "sinchai1",
    From: "SINCHI",
    To: "+919876543210",
    Body: "Your OTP is 123456",
    Status: "queued",
    DetailedStatusCode: 21010,
    DetailedStatus: "PENDING_TO_OPERATOR",
    DateCreated: "2024-01-15 10:30:00",
    DateUpdated: "2024-01-15 10:30:00",
    DateSent: null,
    Price: null,
    Uri: "/v1/Accounts/sinchai1/SMS/Messages/b6bbd1cda2ee1ec2f6f5c28d3dc8f176",
  },
};

/** https://developer.exotel.com/docs/voice-v1/api-reference/outgoing-call-to-flow (response example) */
export const EXOTEL_CALL_CONNECTED = {
  Call: {
    Sid: "80bfbec2d78bbbf10fb851f4fa165211",
    ParentCallSid: null,
    DateCreated: "2017-03-03 12:30:24",
    DateUpdated: "2017-03-03 12:30:27",
    AccountSid: "sinchai1",
    To: "08047112233",
    From: "+919876543210",
    PhoneNumberSid: "08047112233",
    Status: "in-progress",
    StartTime: "2017-03-03 12:30:27",
    EndTime: null,
    Duration: null,
    Price: null,
    Direction: "outbound-api",
    AnsweredBy: null,
    ForwardedFrom: null,
    CallerName: null,
    Uri: "/v1/Accounts/sinchai1/Calls/80bfbec2d78bbbf10fb851f4fa165211",
    RecordingUrl: null,
  },
};

/** https://developer.exotel.com/docs/sms-support/sms-api-errors (401) */
export const EXOTEL_UNAUTHORIZED = {
  RestException: { Status: 401, Message: "Authentication failed. Invalid API Key or Token.", Code: "UNAUTHORIZED" },
};
