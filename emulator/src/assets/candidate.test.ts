import { createHash } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { createEmulator } from "../app";

// `--sdk PATH|URL`: the emulator serves a candidate bundle byte for byte instead of its own build
// (README, "Serve a candidate SDK"), and says which one at GET /__emulator/sdk.

const CANDIDATE = "export const Service = { candidate: true }; export default Service;\n";
const sha = (text: string) => createHash("sha256").update(text).digest("hex");

async function served(sdk?: string) {
  const emulator = createEmulator({ config: sdk ? { sdk } : {} });
  const running = await emulator.listen(0, "127.0.0.1");
  try {
    const bundle = await fetch(`${running.url}/assets/v1/main.js`);
    const info = await (await fetch(`${running.url}/__emulator/sdk`)).json();
    return {
      status: bundle.status,
      type: bundle.headers.get("content-type"),
      code: await bundle.text(),
      info,
    };
  } finally {
    await running.close();
  }
}

describe("the SDK bundle the emulator serves", () => {
  it("is its own build by default", async () => {
    const { status, code, info } = await served();
    expect(status).toBe(200);
    expect(info).toMatchObject({
      source: "built-in",
      bytes: Buffer.byteLength(code),
      sha256: sha(code),
    });
    expect(code).not.toBe(CANDIDATE);
  });

  it("is a candidate file, unchanged, when --sdk names a path", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "sdk-candidate-"));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const file = path.join(dir, "main.js");
    await writeFile(file, CANDIDATE);
    const { status, type, code, info } = await served(file);
    expect(status).toBe(200);
    expect(type).toMatch(/^text\/javascript/);
    expect(code).toBe(CANDIDATE);
    expect(info).toMatchObject({ source: file, sha256: sha(CANDIDATE) });
  });

  it("is a candidate fetched from a URL", async () => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/javascript" });
      res.end(CANDIDATE);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/main.js`;
    try {
      const { code, info } = await served(url);
      expect(code).toBe(CANDIDATE);
      expect(info).toMatchObject({ source: url });
    } finally {
      server.close();
    }
  });

  it("fails loudly, never falling back to its own build, when the candidate is missing", async () => {
    const emulator = createEmulator({ config: { sdk: "/nonexistent/main.js" } });
    const running = await emulator.listen(0, "127.0.0.1");
    try {
      const bundle = await fetch(`${running.url}/assets/v1/main.js`);
      expect(bundle.status).toBe(500);
    } finally {
      await running.close();
    }
  });
});
