import { unsealData } from "iron-session";
import { NextRequest, NextResponse } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { withShopSession } from "@/lib/session/proxy-session";
import { endSession, rotateToken } from "@/lib/session/revocation";
import { randomHex32, SESSION_COOKIE, type ShopSessionData } from "@/lib/session/session-data";
import {
  createTestShop,
  newSession,
  sessionCookie,
  TEST_ENV,
  type TestShop,
} from "@/test-support/test-shop";
import { shopSessionIdentity } from "./request-session";

// The kit's SessionIdentity over this shop's session: what the service relies on
// (shop-ports.ts, SessionIdentity; docs/decisions/session-identity.md).

// Counts the unsealings, for the cookie the proxy seals for a cookieless request.
vi.mock("iron-session", async (original) => {
  const real = await original<typeof import("iron-session")>();
  return { ...real, unsealData: vi.fn(real.unsealData) };
});

let shop: TestShop;
beforeAll(async () => {
  shop = await createTestShop();
});
afterAll(() => shop.cleanup());

const read = async (data: ShopSessionData | null, cookie?: string) =>
  shopSessionIdentity.ofRequest(
    new Request("http://shop.test/api/service/shopper_data", {
      headers:
        cookie !== undefined
          ? { cookie }
          : data
            ? { cookie: await sessionCookie(data as Parameters<typeof sessionCookie>[0]) }
            : {},
    }),
  );

describe("shopSessionIdentity", () => {
  it("keeps the session id and salt through sign-in and replaces both at sign-out", async () => {
    const data: ShopSessionData = { ...newSession(), token: randomHex32() };
    const guest = await read(data);
    expect(guest).toMatchObject({ sessionId: data.sessionId, salt: data.salt });
    expect(guest?.customerId).toBeUndefined();

    // Sign-in as loginAction does it: a new token, the customer, the same identity.
    await rotateToken(data, "login");
    data.customerId = "cust_1";
    const signedIn = await read(data);
    expect(signedIn).toEqual({
      sessionId: guest?.sessionId,
      salt: guest?.salt,
      customerId: "cust_1",
    });

    // Sign-out as the logout route does it: the identity is replaced, nothing of it is kept.
    await endSession(data, "logout");
    const after = await read(data);
    expect(after?.sessionId).toMatch(/^[0-9a-f]{64}$/);
    expect(after?.sessionId).not.toBe(guest?.sessionId);
    expect(after?.salt).not.toBe(guest?.salt);
    expect(after?.customerId).toBeUndefined();
  });

  it("gives null without a session cookie, for a tampered one and for one without an identity", async () => {
    expect(await read(null)).toBeNull();
    const cookie = await sessionCookie(newSession());
    expect(await read(null, `${cookie.slice(0, -4)}AAAA`)).toBeNull();
    expect(await read(null, await sessionCookie({ sessionId: "", salt: "" }))).toBeNull();
  });

  it("a cookieless request's route reads the identity the proxy sealed for it without unsealing it again", async () => {
    const request = new NextRequest("http://shop.test/api/service/trade-in-seen", {
      method: "POST",
    });
    vi.mocked(unsealData).mockClear();
    let read: Awaited<ReturnType<typeof shopSessionIdentity.ofRequest>> = null;
    const response = await withShopSession(request, async (headers) => {
      read = await shopSessionIdentity.ofRequest(new Request(request.url, { headers }));
      return NextResponse.next();
    });
    expect(vi.mocked(unsealData)).not.toHaveBeenCalled();
    const set = response.cookies.get(SESSION_COOKIE)?.value ?? "";
    const sealed = await unsealData<ShopSessionData>(set, {
      password: TEST_ENV.SESSION_SECRET,
    });
    expect(read).toEqual({ sessionId: sealed.sessionId, salt: sealed.salt });
  });
});
