import { describe, expect, it } from "vitest";
import { readBodyAtMost } from "./request-body.js";

/** A body stream of `chunks` chunks of 1 KB that counts how many were pulled. */
function countingBody(chunks: number) {
  const pulled = { count: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled.count === chunks) return controller.close();
      pulled.count += 1;
      controller.enqueue(new Uint8Array(1024).fill(97));
    },
    cancel() {
      pulled.cancelled = true;
    },
  });
  const request = new Request("http://shop.test/x", {
    method: "POST",
    body: stream,
    duplex: "half",
  } as RequestInit);
  return { request, pulled };
}

describe("readBodyAtMost", () => {
  it("reads a body within the limit", async () => {
    const request = new Request("http://shop.test/x", { method: "POST", body: "héllo" });
    const body = await readBodyAtMost(request, 16);
    expect(new TextDecoder().decode(body ?? undefined)).toBe("héllo");
  });

  it("stops reading as soon as the limit is passed and cancels the rest", async () => {
    const { request, pulled } = countingBody(200 * 1024); // 200 MB if read whole
    expect(await readBodyAtMost(request, 64 * 1024)).toBeNull();
    expect(pulled.count).toBeLessThanOrEqual(66);
    expect(pulled.cancelled).toBe(true);
  });

  it("refuses a declared Content-Length above the limit without reading", async () => {
    const { request, pulled } = countingBody(1000);
    const declared = new Request(request, { headers: { "content-length": "999999" } });
    expect(await readBodyAtMost(declared, 1024)).toBeNull();
    expect(pulled.count).toBeLessThan(4);
  });
});
