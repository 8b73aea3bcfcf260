import { afterAll, beforeAll, beforeEach } from "vitest";
import { createEmulator, type EmulatorOptions } from "../src/app";
import type { EmulatorContext } from "../src/context";
import type { Cart } from "../src/domain";

// Black-box harness: each test file starts its own emulator in-process on a free port with
// fresh state and talks to it over HTTP only (ctx is used for nothing but resets).

export interface Harness {
  url: string;
  ctx: EmulatorContext;
  close(): Promise<void>;
  /** fetch against the emulator. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** JSON call to the control API. */
  control(method: string, path: string, body?: unknown): Promise<Response>;
  /** Password grant with the seed's demo credentials unless told otherwise. */
  login(opts?: LoginOptions): Promise<TokenBody>;
  /** GET/POST with a bearer token. */
  api(token: string, path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
}

export interface LoginOptions {
  client?: [string, string];
  username?: string;
  password?: string;
  scope?: string;
}

export interface TokenBody {
  access_token: string;
  refresh_token: string;
  token_type: string;
  expires_in: number;
  scope: string;
  user_id: string;
  merchant_id: string;
}

export const DEMO_CLIENT: [string, string] = ["demo-client", "demo-client-secret"];
export const BASIC_CLIENT: [string, string] = ["basic-client", "basic-client-secret"];
export const ALL_SCOPES = "core payments valuations updates";

export function basic([id, secret]: [string, string]): string {
  return `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;
}

export function tokenRequest(url: string, form: Record<string, string>, client = DEMO_CLIENT) {
  return fetch(`${url}/oauth2/token/`, {
    method: "POST",
    headers: { authorization: basic(client), "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form).toString(),
  });
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<Harness> {
  // The slow-network check's body in pieces 50 ms apart, not 500: the same check in a tenth of
  // the real time each active run waits.
  const emulator = createEmulator({
    ...options,
    config: { slowSendGapMs: 50, ...options.config },
  });
  const running = await emulator.listen(0, "127.0.0.1");
  const url = `http://127.0.0.1:${running.port}`;
  const h: Harness = {
    url,
    ctx: emulator.ctx,
    close: running.close,
    fetch: (path, init) => fetch(`${url}${path}`, init),
    control: (method, path, body) =>
      fetch(`${url}/__emulator${path}`, {
        method,
        headers: { "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    async login(opts = {}) {
      const res = await tokenRequest(
        url,
        {
          grant_type: "password",
          username: opts.username ?? "merchant-admin",
          password: opts.password ?? "merchant-password",
          scope: opts.scope ?? ALL_SCOPES,
        },
        opts.client ?? DEMO_CLIENT,
      );
      if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
      return (await res.json()) as TokenBody;
    },
    api(token, path, init = {}) {
      const { json, headers, ...rest } = init;
      return fetch(`${url}${path}`, {
        ...rest,
        ...(json === undefined ? {} : { body: JSON.stringify(json) }),
        headers: {
          authorization: `Bearer ${token}`,
          ...(json === undefined ? {} : { "content-type": "application/json" }),
          ...(headers as Record<string, string> | undefined),
        },
      });
    },
  };
  return h;
}

/**
 * The emulator of one test file: started in beforeAll, closed in afterAll and reset to the seed
 * before each test (registered first, so a file's own beforeEach runs on the fresh seed). The
 * harness returned is usable from the file's own beforeAll on: it reads the running emulator.
 */
export function emulatorPerFile(options: EmulatorOptions = {}): Harness {
  let running: Harness | undefined;
  beforeAll(async () => {
    running = await startEmulator(options);
  });
  afterAll(() => running?.close());
  beforeEach(() => running?.ctx.reset());
  return new Proxy({} as Harness, {
    get(_target, key) {
      if (!running) throw new Error("the emulator starts in beforeAll");
      return Reflect.get(running, key);
    },
  });
}

let hashCounter = 0;
/** A fresh session hash (64 hex chars, like an HMAC-SHA256). */
export function newHash(): string {
  hashCounter++;
  return `${Date.now().toString(16)}${hashCounter.toString(16)}`.padEnd(64, "a").slice(0, 64);
}

let cartCounter = 0;

/** A valid one-line cart with a fresh id; every sum adds up. */
export function makeCart(overrides: Partial<Cart> = {}, unitPrice = 25000, quantity = 1): Cart {
  const tax = Math.round(unitPrice * quantity * 0.21);
  const item = {
    id: "sku-1",
    name: "Aurora 16",
    description: "Phone",
    url: "http://localhost:3000/products/aurora-16",
    quantity,
    price: unitPrice,
    tax,
    total: unitPrice * quantity + tax,
  };
  return {
    id: `cart-${++cartCounter}`,
    currency: "EUR",
    items: [item],
    price: unitPrice * quantity,
    tax,
    discounts: [],
    total: unitPrice * quantity + tax,
    ...overrides,
  };
}

export function b64(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64");
}

/** Creates an accepted trade-in for a fresh session through the control API. */
export async function acceptedTradeIn(
  h: Harness,
  body: Record<string, unknown> = {},
): Promise<{ hash: string; id: string; value: number; session_id: string }> {
  const hash = (body.session_hash as string | undefined) ?? newHash();
  const res = await h.control("POST", "/tradeins", { session_hash: hash, value: 12000, ...body });
  if (res.status !== 201) throw new Error(`trade-in failed: ${res.status} ${await res.text()}`);
  const { tradein_item } = (await res.json()) as {
    tradein_item: { id: string; value: number; session_id: string };
  };
  return { hash, ...tradein_item };
}

export async function errorOf(
  res: Response,
): Promise<{ status: number; error: string; error_description: string }> {
  const body = (await res.json()) as { error: string; error_description: string };
  expectOnlyErrorKeys(body);
  return { status: res.status, ...body };
}

function expectOnlyErrorKeys(body: Record<string, unknown>) {
  const keys = Object.keys(body).sort().join(",");
  if (keys !== "error,error_description") throw new Error(`not a contract error body: ${keys}`);
  if (typeof body.error !== "string" || typeof body.error_description !== "string") {
    throw new Error("error and error_description must be strings");
  }
}
