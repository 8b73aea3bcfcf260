import * as oauth from "oauth4webapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALL_SCOPES, type Harness, startEmulator } from "./harness";

// RFC 6749 conformance, shown with a client library nobody here wrote (oauth4webapi): it
// checks the token response's shape, token_type, the JSON content type and error bodies.

let h: Harness;
let as: oauth.AuthorizationServer;
const client: oauth.Client = { client_id: "demo-client" };
const auth = oauth.ClientSecretBasic("demo-client-secret");
const insecure = { [oauth.allowInsecureRequests]: true } as const;

beforeAll(async () => {
  h = await startEmulator();
  as = { issuer: h.url, token_endpoint: `${h.url}/oauth2/token/` };
});
afterAll(() => h.close());

describe("oauth4webapi against the emulator", () => {
  it("does the password grant (RFC 6749 §4.3) with HTTP Basic client authentication", async () => {
    const response = await oauth.genericTokenEndpointRequest(
      as,
      client,
      auth,
      "password",
      { username: "merchant-admin", password: "merchant-password", scope: ALL_SCOPES },
      insecure,
    );
    const tokens = await oauth.processGenericTokenEndpointResponse(as, client, response);
    expect(tokens.token_type).toBe("bearer"); // oauth4webapi normalises the case
    expect(tokens.expires_in).toBe(3600);
    expect(tokens.scope).toBe(ALL_SCOPES);
    expect(tokens.user_id).toBe("u_demo_admin");
    expect(tokens.merchant_id).toBe("m_demo");

    // RFC 6750 §2.1: the bearer token opens the API.
    const api = await oauth.protectedResourceRequest(
      tokens.access_token,
      "GET",
      new URL(`${h.url}/core/merchants/`),
      undefined,
      undefined,
      insecure,
    );
    expect(api.status).toBe(200);

    // RFC 6749 §6: refresh.
    const refreshResponse = await oauth.refreshTokenGrantRequest(
      as,
      client,
      auth,
      tokens.refresh_token as string,
      insecure,
    );
    const refreshed = await oauth.processRefreshTokenResponse(as, client, refreshResponse);
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(refreshed.expires_in).toBe(3600);
  });

  it("surfaces invalid_grant as an RFC 6749 §5.2 error response", async () => {
    const response = await oauth.genericTokenEndpointRequest(
      as,
      client,
      auth,
      "password",
      { username: "merchant-admin", password: "wrong", scope: "core" },
      insecure,
    );
    const error = await oauth
      .processGenericTokenEndpointResponse(as, client, response)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(oauth.ResponseBodyError);
    expect((error as oauth.ResponseBodyError).error).toBe("invalid_grant");
    expect((error as oauth.ResponseBodyError).status).toBe(400);
  });

  it("answers a wrong client secret with a 401 Basic challenge (RFC 6749 §5.2) and invalid_client", async () => {
    const response = await oauth.genericTokenEndpointRequest(
      as,
      client,
      oauth.ClientSecretBasic("wrong"),
      "password",
      { username: "merchant-admin", password: "merchant-password" },
      insecure,
    );
    const error = await oauth
      .processGenericTokenEndpointResponse(as, client, response)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(oauth.WWWAuthenticateChallengeError);
    const challenge = error as oauth.WWWAuthenticateChallengeError;
    expect(challenge.status).toBe(401);
    expect(challenge.cause[0]?.scheme).toBe("basic");
    expect(await challenge.response.json()).toMatchObject({ error: "invalid_client" });
  });
});
