// Calls the local Worker the way a phone or an admin's browser would (bearer tokens here).
import { hashPassword } from "../../common/credentials.ts";
import { executeLocalSql, sqlText } from "../../scripts/lib/local-d1.ts";

export class ApiClient {
  readonly baseUrl: string;
  token: string | null = null;

  constructor(baseUrl: string) {
    this.baseUrl = baseUrl;
  }

  async call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
    const init: RequestInit = {
      method,
      headers: { ...(this.token ? { Authorization: `Bearer ${this.token}` } : {}) },
    };
    if (body instanceof FormData) init.body = body;
    else if (body !== undefined) {
      init.body = JSON.stringify(body);
      (init.headers as Record<string, string>)["Content-Type"] = "application/json";
    }
    const response = await fetch(`${this.baseUrl}${path}`, init);
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  }

  async registerAndLogIn(mobileNo: string, password = "integration-password"): Promise<this> {
    const registered = await this.call("POST", "/api/auth/register", { mobileNo, password });
    if (registered.status !== 201) throw new Error(`register failed: ${JSON.stringify(registered.body)}`);
    return this.logIn("/api/auth/login", mobileNo, password);
  }

  async logIn(path: string, mobileNo: string, password: string): Promise<this> {
    const { status, body } = await this.call("POST", path, { mobileNo, password });
    if (status !== 200) throw new Error(`login failed: ${JSON.stringify(body)}`);
    this.token = body.token;
    return this;
  }
}

/** There is no admin sign-up: make one straight in the local database, as an operator would. */
export async function createAdmin(baseUrl: string, persistTo: string, mobileNo: string): Promise<ApiClient> {
  const password = "integration-admin-password";
  await executeLocalSql(
    persistTo,
    `INSERT INTO users (mobile_no, password_hash, is_admin, created_at) VALUES (${sqlText(mobileNo)}, ${sqlText(await hashPassword(password))}, 1, ${Date.now()});`,
  );
  return new ApiClient(baseUrl).logIn("/api/admin/login", mobileNo, password);
}

let next = 8_100_000_000;
export function uniqueMobileNo(): string {
  next += 1 + Math.floor(Math.random() * 1000);
  return String(next);
}
