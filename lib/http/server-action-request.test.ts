import { describe, expect, it } from "vitest";
import { screenServerAction } from "./server-action-request";

// The proxy's screen of Server Action calls: what the page's React sends passes untouched; a
// body Next.js could not decode, or a foreign Origin, is a 4xx here instead of Next's 500.

const ACTION_ID = `7f${"0".repeat(40)}`;
const URL = "http://shop.test/checkout";

function actionRequest(body: BodyInit, headers: Record<string, string> = {}): Request {
  return new Request(URL, {
    method: "POST",
    headers: {
      host: "shop.test",
      origin: "http://shop.test",
      "next-action": ACTION_ID,
      ...headers,
    },
    body,
  });
}

/** As React's encodeReply sends `[previousState, formData]` (useActionState with a form). */
function genuineMultipart(): FormData {
  const form = new FormData();
  form.set("_1_email", "ada@example.com");
  form.set("0", '[{},"$K1"]');
  return form;
}

describe("screenServerAction", () => {
  it("lets what the page sends through: the arguments' JSON array, as text or as field 0", async () => {
    expect(await screenServerAction(actionRequest(genuineMultipart()))).toBeNull();
    expect(
      await screenServerAction(
        actionRequest('[1,"x"]', { "content-type": "text/plain;charset=UTF-8" }),
      ),
    ).toBeNull();
    // No Origin (a handcrafted request) is Next's to judge, as it does.
    const bare = actionRequest("[]", { origin: "" });
    bare.headers.delete("origin");
    expect(await screenServerAction(bare)).toBeNull();
  });

  it("ignores anything that is not a Server Action call", async () => {
    expect(await screenServerAction(new Request(URL, { method: "POST", body: "x" }))).toBeNull();
    expect(
      await screenServerAction(new Request(URL, { headers: { "next-action": ACTION_ID } })),
    ).toBeNull();
  });

  it.each([
    ["a text body that is not JSON", "not json", "text/plain"],
    ["a JSON body that is not the arguments' array", '{"a":1}', "text/plain"],
    ["an empty body", "", "text/plain"],
    ["a multipart body that does not parse", "--x\r\ngarbage", "multipart/form-data; boundary=zzz"],
  ])("answers 400 to %s", async (_name, body, type) => {
    const res = await screenServerAction(actionRequest(body, { "content-type": type }));
    expect(res?.status).toBe(400);
    expect(await res?.json()).toMatchObject({ error: "bad_request" });
  });

  it.each([
    '["$K1"]',
    '["$Q1"]',
    '["$W1"]',
    '["$h1"]',
    '["$@1"]',
    '["$B1"]',
    '["$Z"]',
    '["$n1x"]',
    '["$D2020"]',
    '[{"deep":["$1"]}]',
  ])("answers 400 to arguments %s: references the text body cannot back", async (body) => {
    const res = await screenServerAction(actionRequest(body, { "content-type": "text/plain" }));
    expect(res?.status).toBe(400);
  });

  it("takes the references React writes for plain values, escaped strings and present parts", async () => {
    for (const body of ['["$undefined",{"a":"$NaN"},"$$literal","$-0"]', '[{"x":1},"$0:0:x"]']) {
      expect(
        await screenServerAction(actionRequest(body, { "content-type": "text/plain" })),
        body,
      ).toBeNull();
    }
    const form = genuineMultipart();
    form.set("10", '{"outlined":true}');
    form.set("0", '[{},"$K1","$a"]');
    expect(await screenServerAction(actionRequest(form))).toBeNull();
    form.set("0", '[{},"$K1","$b"]');
    expect((await screenServerAction(actionRequest(form)))?.status).toBe(400);
  });

  it("answers 400 to a multipart body without the arguments in field 0", async () => {
    const form = genuineMultipart();
    form.delete("0");
    expect((await screenServerAction(actionRequest(form)))?.status).toBe(400);
    form.set("0", "{not json");
    expect((await screenServerAction(actionRequest(form)))?.status).toBe(400);
  });

  it("answers 403 to a foreign or unparsable Origin", async () => {
    for (const origin of ["https://evil.example", "null", "::::"]) {
      const res = await screenServerAction(actionRequest(genuineMultipart(), { origin }));
      expect(res?.status, origin).toBe(403);
    }
    // Behind a proxy the forwarded host is the one the browser used.
    const proxied = actionRequest(genuineMultipart(), {
      host: "127.0.0.1:3001",
      "x-forwarded-host": "shop.test",
    });
    expect(await screenServerAction(proxied)).toBeNull();
  });

  it("leaves the body readable for Next.js", async () => {
    const request = actionRequest('["kept"]', { "content-type": "text/plain" });
    await screenServerAction(request);
    expect(await request.text()).toBe('["kept"]');
  });
});
