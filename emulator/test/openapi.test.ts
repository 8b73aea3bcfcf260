import { describe, expect, it } from "vitest";
import { createEmulator } from "../src/app";
import { SERVICE_ENDPOINTS } from "../src/http/endpoints";
import { OPENAPI_PATH } from "../src/routes/openapi";
import { emulatorPerFile } from "./harness";

// GET /openapi.json describes exactly the service API the emulator serves (contract, Endpoints ›
// Service API): every route outside the control API (/__emulator/), the browser SDK's private
// protocol (/sdk/v1/) and its assets (/assets/) is in the document, and nothing else is.

const h = emulatorPerFile();

type Document = {
  openapi: string;
  servers: { url: string }[];
  paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>;
  components: { schemas: Record<string, unknown> };
};

async function document(): Promise<Document> {
  const res = await h.fetch(OPENAPI_PATH);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("application/json");
  return (await res.json()) as Document;
}

/** "METHOD /path/{param}/" of every route the emulator's app serves under the service API. */
function servedServiceRoutes(): string[] {
  const { app } = createEmulator();
  const routes = new Set<string>();
  for (const route of app.routes) {
    if (route.method === "ALL") continue; // middleware
    const { path } = route;
    if (path === OPENAPI_PATH) continue;
    if (path === "/__emulator" || path.startsWith("/__emulator/")) continue;
    if (path.startsWith("/sdk/") || path.startsWith("/assets/")) continue;
    routes.add(`${route.method} ${path.replace(/:([A-Za-z_]+)/g, "{$1}")}`);
  }
  return [...routes].sort();
}

function documentedRoutes(doc: Document): string[] {
  return Object.entries(doc.paths)
    .flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    )
    .sort();
}

describe("GET /openapi.json", () => {
  it("is an OpenAPI 3.1 document whose server is the emulator itself", async () => {
    const doc = await document();
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.servers).toEqual([{ url: h.url }]);
  });

  it("lists every service API route the emulator serves, and only those", async () => {
    const served = servedServiceRoutes();
    expect(documentedRoutes(await document())).toEqual(served);
    // … which are the contract's seven operations.
    expect(served).toEqual(SERVICE_ENDPOINTS.map((e) => `${e.method} ${e.path}`).sort());
  });

  it("declares each path parameter of a path, and every schema it refers to", async () => {
    const doc = await document();
    for (const [path, operations] of Object.entries(doc.paths)) {
      const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
      for (const operation of Object.values(operations)) {
        const declared = (operation.parameters ?? [])
          .filter((p) => p.in === "path")
          .map((p) => p.name)
          .sort();
        expect(declared, path).toEqual(inPath);
      }
    }
    const refs = [...JSON.stringify(doc).matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map(
      (m) => m[1] as string,
    );
    for (const name of new Set(refs)) expect(doc.components.schemas, name).toHaveProperty(name);
  });
});
