// The local gateway seen from a test or a script, over its HTTP endpoints (local-gateway.ts).
import { z } from "../common/zod.ts";

const recordsSchema = z.object({
  links: z.array(
    z.object({
      id: z.string(),
      orderId: z.string(),
      amount: z.number(),
      referenceId: z.string(),
      status: z.string(),
      lastAction: z.string(),
    }),
  ),
  payments: z.array(
    z.object({
      id: z.string(),
      linkId: z.string(),
      orderId: z.string(),
      amount: z.number(),
      status: z.string(),
      amountRefunded: z.number(),
    }),
  ),
  refunds: z.array(z.object({ id: z.string(), paymentId: z.string(), amount: z.number() })),
  events: z.array(
    z.object({ id: z.string(), event: z.string(), deliveries: z.array(z.union([z.number(), z.string()])) }),
  ),
});
export type GatewayRecords = z.infer<typeof recordsSchema>;

const paidSchema = z.object({ paymentId: z.string(), orderId: z.string(), events: z.array(z.string()) });
const failedSchema = z.object({ paymentId: z.string(), events: z.array(z.string()) });
const refundedSchema = z.object({ refundId: z.string(), events: z.array(z.string()) });

export function localGatewayClient(baseUrl: string) {
  async function post(path: string, body: unknown): Promise<unknown> {
    const response = await fetch(`${baseUrl}${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const answer: unknown = await response.json();
    if (!response.ok) throw new Error(`${path}: ${JSON.stringify(answer)}`);
    return answer;
  }
  return {
    records: async (): Promise<GatewayRecords> => recordsSchema.parse(await (await fetch(`${baseUrl}/__links`)).json()),
    pay: async (linkId: string, amountPaise?: number) =>
      paidSchema.parse(await post("/__pay", { linkId, amountPaise })),
    fail: async (linkId: string) => failedSchema.parse(await post("/__fail", { linkId })),
    abandon: async (linkId: string) => void (await post("/__abandon", { linkId })),
    refund: async (paymentId: string, amountPaise?: number) =>
      refundedSchema.parse(await post("/__refund", { paymentId, amountPaise })),
    redeliver: async (eventId: string) => void (await post("/__redeliver", { eventId })),
    delivery: async (order: "inOrder" | "reversed" | "shuffled", copies = 1) =>
      void (await post("/__delivery", { order, copies })),
    settlement: async (item: {
      type: "payment" | "refund";
      entityId: string;
      paymentId?: string;
      orderId?: string;
      amountPaise: number;
      day: string;
    }) => void (await post("/__settlement", item)),
    settled: async () => void (await post("/__settled", {})),
  };
}
export type LocalGatewayClient = ReturnType<typeof localGatewayClient>;
