import { describe, expect, it } from "vitest";
import { ALL_SCOPES, emulatorPerFile, tokenRequest } from "./harness";

// A fault with `body_stall_ms`: the answer's status, headers and first half of its body at once,
// the rest once the merchant's clock has passed the stall (emulator/README.md, Faults). What a
// client's time limit must cover: a connection that stops while the answer is read.

const h = emulatorPerFile();

const login = () =>
  tokenRequest(h.url, {
    grant_type: "password",
    username: "merchant-admin",
    password: "merchant-password",
    scope: ALL_SCOPES,
  });

/** Whether `promise` has settled once the emulator answered one more request after this call. */
async function settledAfterRoundTrip(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  await (await h.control("GET", "/clock")).text();
  return settled;
}

describe("a fault that stalls the answer mid-body", () => {
  it("sends the status, the whole length and half the body, and the rest only when the clock passes the stall", async () => {
    const fault = await h.control("POST", "/faults", {
      endpoint: "token",
      body_stall_ms: 60_000,
      count: 1,
    });
    expect(fault.status).toBe(201);
    const res = await login();
    expect(res.status).toBe(200);
    expect(res.headers.get("x-emulator-fault")).toBe(((await fault.json()) as { id: string }).id);
    const length = Number(res.headers.get("content-length"));
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    expect(first.value?.length).toBe(Math.floor(length / 2));
    const rest = reader.read();
    expect(await settledAfterRoundTrip(rest)).toBe(false);
    expect((await h.control("POST", "/clock/advance", { seconds: 61 })).status).toBe(200);
    const second = await rest;
    const text = new TextDecoder().decode(
      new Uint8Array([...(first.value ?? []), ...(second.value ?? [])]),
    );
    expect(text.length).toBe(length);
    expect(JSON.parse(text)).toMatchObject({ token_type: "Bearer" });
    expect((await reader.read()).done).toBe(true);
  });

  it("stalls an injected error's body too; a reader that gives up leaves the emulator answering", async () => {
    await h.control("POST", "/faults", {
      endpoint: "token",
      status: 503,
      body_stall_ms: 60_000,
      count: 1,
    });
    const stalled = await tokenRequest(h.url, { grant_type: "client_credentials" });
    expect(stalled.status).toBe(503);
    const reader = (stalled.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    await reader.cancel();
    // The fault spent: the next login is answered in full, at once.
    expect((await login()).status).toBe(200);
    await h.control("POST", "/clock/advance", { seconds: 61 });
    expect((await login()).status).toBe(200);
  });

  it("refuses a stall that is not a whole positive number of milliseconds, or over two minutes", async () => {
    for (const body_stall_ms of [0, 1.5, 120_001, "60000"]) {
      const res = await h.control("POST", "/faults", { endpoint: "token", body_stall_ms });
      expect(res.status, String(body_stall_ms)).toBe(400);
    }
    const { faults } = (await (await h.control("GET", "/faults")).json()) as { faults: unknown[] };
    expect(faults).toHaveLength(0);
  });
});
