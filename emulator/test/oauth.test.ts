import { describe, expect, it } from "vitest";
import {
  ALL_SCOPES,
  BASIC_CLIENT,
  DEMO_CLIENT,
  emulatorPerFile,
  errorOf,
  tokenRequest,
} from "./harness";

// Contract: Authentication §1–§4, the token rows of the error table, Limits (token lifetime).

const h = emulatorPerFile();

const password = (extra: Record<string, string> = {}) => ({
  grant_type: "password",
  username: "merchant-admin",
  password: "merchant-password",
  scope: ALL_SCOPES,
  ...extra,
});

describe("POST /oauth2/token/ password grant", () => {
  it("answers the token response with no-store caching", async () => {
    const res = await tokenRequest(h.url, password());
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = await res.json();
    expect(body).toMatchObject({
      token_type: "Bearer",
      expires_in: 3600,
      user_id: "u_demo_admin",
      merchant_id: "m_demo",
      scope: ALL_SCOPES,
    });
    expect(body.access_token).toEqual(expect.any(String));
    expect(body.refresh_token).toEqual(expect.any(String));
    expect(body.access_token).not.toBe(body.refresh_token);
  });

  it("grants the user's scopes when none is asked for", async () => {
    const { scope, ...form } = password();
    const res = await tokenRequest(h.url, form);
    expect((await res.json()).scope).toBe(ALL_SCOPES);
  });

  it.each([
    ["no Authorization header", undefined],
    ["wrong client secret", "Basic ZGVtby1jbGllbnQ6d3Jvbmc="],
    ["unknown client", `Basic ${Buffer.from("nobody:secret").toString("base64")}`],
    ["no colon in the credentials", `Basic ${Buffer.from("demo-client").toString("base64")}`],
    ["a bearer token instead of Basic", "Bearer abc"],
  ])("answers 401 invalid_client for %s", async (_, authorization) => {
    const res = await fetch(`${h.url}/oauth2/token/`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        ...(authorization ? { authorization } : {}),
      },
      body: new URLSearchParams(password()).toString(),
    });
    expect(res.headers.get("www-authenticate")).toMatch(/^Basic/);
    expect(await errorOf(res)).toMatchObject({ status: 401, error: "invalid_client" });
  });

  it("answers 400 invalid_grant for a wrong password", async () => {
    const res = await tokenRequest(h.url, password({ password: "nope" }));
    expect(await errorOf(res)).toMatchObject({ status: 400, error: "invalid_grant" });
  });

  it("answers 400 invalid_grant for an unknown user and for another merchant's user", async () => {
    const unknown = await tokenRequest(h.url, password({ username: "ghost" }));
    expect(await errorOf(unknown)).toMatchObject({ status: 400, error: "invalid_grant" });
    const other = await tokenRequest(
      h.url,
      password({ username: "basic-admin", password: "basic-password", scope: "core" }),
    );
    expect(await errorOf(other)).toMatchObject({ status: 400, error: "invalid_grant" });
  });

  it.each([
    ["an unknown scope", "core admin"],
    ["a malformed scope (double space)", "core  payments"],
    ["a malformed scope (comma separated)", "core,payments"],
    ["a malformed scope (quote)", 'core "payments"'],
  ])("answers 400 invalid_scope for %s", async (_, scope) => {
    const res = await tokenRequest(h.url, password({ scope }));
    expect(await errorOf(res)).toMatchObject({ status: 400, error: "invalid_scope" });
  });

  it("answers 400 invalid_scope for a scope beyond what the user is granted", async () => {
    const res = await tokenRequest(
      h.url,
      {
        grant_type: "password",
        username: "basic-admin",
        password: "basic-password",
        scope: ALL_SCOPES,
      },
      BASIC_CLIENT,
    );
    expect(await errorOf(res)).toMatchObject({ status: 400, error: "invalid_scope" });
  });

  it("answers 400 unsupported_grant_type and invalid_request for other mistakes", async () => {
    const grant = await tokenRequest(h.url, { grant_type: "client_credentials" });
    expect(await errorOf(grant)).toMatchObject({ status: 400, error: "unsupported_grant_type" });
    const missing = await tokenRequest(h.url, {
      grant_type: "password",
      username: "merchant-admin",
    });
    expect(await errorOf(missing)).toMatchObject({ status: 400, error: "invalid_request" });
    const json = await fetch(`${h.url}/oauth2/token/`, {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from(DEMO_CLIENT.join(":")).toString("base64")}`,
        "content-type": "application/json",
      },
      body: JSON.stringify(password()),
    });
    expect(await errorOf(json)).toMatchObject({ status: 400, error: "invalid_request" });
  });

  it("fails without the trailing slash", async () => {
    const res = await fetch(`${h.url}/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(password()).toString(),
    });
    const err = await errorOf(res);
    expect(err).toMatchObject({ status: 404, error: "not_found" });
    expect(err.error_description).toContain("/oauth2/token/");
  });
});

describe("refresh grant and expiry on the emulator clock", () => {
  it("refreshes into a new token pair that lives 1 hour, and the old refresh token stops working", async () => {
    const first = await h.login();
    const res = await tokenRequest(h.url, {
      grant_type: "refresh_token",
      refresh_token: first.refresh_token,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const second = await res.json();
    expect(second).toMatchObject({
      expires_in: 3600,
      user_id: "u_demo_admin",
      merchant_id: "m_demo",
    });
    expect(second.access_token).not.toBe(first.access_token);
    const again = await tokenRequest(h.url, {
      grant_type: "refresh_token",
      refresh_token: first.refresh_token,
    });
    expect(await errorOf(again)).toMatchObject({ status: 400, error: "invalid_grant" });
  });

  it("expires the access token after 1 hour (401 unauthorized) and a refresh gives a working one", async () => {
    const tokens = await h.login();
    expect((await h.api(tokens.access_token, "/core/merchants/")).status).toBe(200);
    await h.control("POST", "/clock/advance", { minutes: 59 });
    expect((await h.api(tokens.access_token, "/core/merchants/")).status).toBe(200);
    await h.control("POST", "/clock/advance", { minutes: 1 });
    const expired = await h.api(tokens.access_token, "/core/merchants/");
    expect(await errorOf(expired)).toMatchObject({ status: 401, error: "unauthorized" });
    const refreshed = await tokenRequest(h.url, {
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
    });
    const { access_token } = await refreshed.json();
    expect((await h.api(access_token, "/core/merchants/")).status).toBe(200);
    // The refreshed token lives 1 hour from the refresh, not from the first login.
    await h.control("POST", "/clock/advance", { minutes: 59 });
    expect((await h.api(access_token, "/core/merchants/")).status).toBe(200);
    await h.control("POST", "/clock/advance", { minutes: 1 });
    expect((await h.api(access_token, "/core/merchants/")).status).toBe(401);
  });

  it("answers 401 invalid_grant for an expired refresh token (14 days)", async () => {
    const tokens = await h.login();
    await h.control("POST", "/clock/advance", { days: 14 });
    const res = await tokenRequest(h.url, {
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
    });
    expect(await errorOf(res)).toMatchObject({ status: 401, error: "invalid_grant" });
    // …after which the password grant still works (contract, Authentication §4).
    expect((await tokenRequest(h.url, password())).status).toBe(200);
  });

  it("keeps a refresh within 14 days valid", async () => {
    const tokens = await h.login();
    await h.control("POST", "/clock/advance", { days: 13, hours: 23 });
    const res = await tokenRequest(h.url, {
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
    });
    expect(res.status).toBe(200);
  });

  it("rejects unknown refresh tokens, another client's, and widening the scope", async () => {
    const unknown = await tokenRequest(h.url, {
      grant_type: "refresh_token",
      refresh_token: "nope",
    });
    expect(await errorOf(unknown)).toMatchObject({ status: 400, error: "invalid_grant" });
    const tokens = await h.login({ scope: "core payments" });
    const wider = await tokenRequest(h.url, {
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
      scope: "core payments updates",
    });
    expect(await errorOf(wider)).toMatchObject({ status: 400, error: "invalid_scope" });
    const other = await tokenRequest(
      h.url,
      { grant_type: "refresh_token", refresh_token: tokens.refresh_token },
      BASIC_CLIENT,
    );
    expect(await errorOf(other)).toMatchObject({ status: 400, error: "invalid_grant" });
  });

  it("lets a refresh narrow the scope", async () => {
    const tokens = await h.login();
    const res = await tokenRequest(h.url, {
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
      scope: "core",
    });
    expect((await res.json()).scope).toBe("core");
  });
});
