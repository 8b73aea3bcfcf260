// GET /openapi.json: the service API the emulator serves (contract, Endpoints › Service API) as
// an OpenAPI 3.1 document, so an integrator can generate a client or check its requests. The
// request bodies are the emulator's own zod schemas; where the contract leaves a shape open
// (README, fidelity table) the document describes the emulator's answer.
import { z } from "zod";
import type { EmulatorModule } from "../context";
import { ORDER_STATUSES, SCOPES, UPDATE_TYPES } from "../domain";
import { cartSchema } from "../http/cart";
import { SERVICE_ENDPOINTS } from "../http/endpoints";
import { updateBody } from "./orders";
import { registerPurchaseBody } from "./register-purchase";

export const OPENAPI_PATH = "/openapi.json";

type Schema = Record<string, unknown>;

/** JSON Schema 2020-12 (OpenAPI 3.1's dialect) of what a request may send. */
function jsonSchema(schema: z.ZodType): Schema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: "input" }) as Schema;
  return rest;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Schema) => ({ "application/json": { schema } });
const cents = { type: "integer", minimum: 0, description: "integer number of cents" };
const time = { type: "string", format: "date-time" };
const nullableString = { type: ["string", "null"] };

const SCHEMAS: Record<string, Schema> = {
  Error: {
    type: "object",
    required: ["error", "error_description"],
    properties: { error: { type: "string" }, error_description: { type: "string" } },
  },
  TokenResponse: {
    type: "object",
    required: ["access_token", "refresh_token", "user_id", "merchant_id"],
    properties: {
      access_token: { type: "string" },
      refresh_token: { type: "string" },
      user_id: { type: "string" },
      merchant_id: { type: "string" },
      token_type: { const: "Bearer" },
      expires_in: { type: "integer", description: "seconds (3600)" },
      scope: { type: "string", description: "space-separated" },
    },
  },
  Merchant: {
    type: "object",
    properties: {
      id: { type: "string" },
      name: { type: "string" },
      products: { enum: ["valuations", "valuations+ep1"] },
      currency: { type: "string" },
      minimums: {
        type: "object",
        properties: { tradein: cents, ep1: cents },
      },
      allowed_origins: { type: "array", items: { type: "string" } },
      webhook_base: { type: "string" },
      webhook_form: { enum: ["flat", "wrapped"] },
    },
  },
  TradeInItem: {
    type: "object",
    required: ["id", "status", "valid_until"],
    properties: {
      id: { type: "string" },
      status: { enum: ["offered", "accepted", "used", "cancelled"] },
      value: cents,
      currency: { type: "string" },
      valid_until: time,
      session_id: { type: "string" },
      device: {
        type: "object",
        properties: {
          category: { type: "string" },
          model_id: { type: "string" },
          brand: { type: "string" },
          name: { type: "string" },
        },
      },
      condition: {
        type: "object",
        properties: {
          answers: { type: "object", additionalProperties: { type: "string" } },
          factor: { type: "number" },
        },
      },
      created_at: time,
      accepted_at: { ...time, type: ["string", "null"] },
      used_at: { ...time, type: ["string", "null"] },
    },
  },
  Session: {
    type: "object",
    required: ["session_id"],
    properties: {
      session_id: { type: "string", description: "`<session_hash>|NNN`" },
      tradein_item: {
        oneOf: [ref("TradeInItem"), { type: "string", description: "the item's id" }],
      },
      note: { type: "string" },
    },
  },
  Order: {
    type: "object",
    properties: {
      id: { type: "string" },
      order_id: { type: "string" },
      cart_id: { type: "string" },
      status: { enum: [...ORDER_STATUSES] },
      amount: cents,
      currency: { type: "string" },
      trade_in_discount: cents,
      customer_id: nullableString,
      payment: { enum: ["ep1", "other"] },
      tradein_item: nullableString,
      created_at: time,
      updated_at: time,
    },
  },
  Cart: jsonSchema(cartSchema),
};

const errors = (...statuses: number[]) =>
  Object.fromEntries(
    statuses.map((status) => [
      String(status),
      { description: `error (${status})`, content: json(ref("Error")) },
    ]),
  );

const ok = (description: string, schema: Schema) => ({
  "200": { description, content: json(schema) },
});

const pathParam = (name: string) => ({
  name,
  in: "path",
  required: true,
  schema: { type: "string" },
});

/** One operation per SERVICE_ENDPOINTS entry, keyed by its name. */
const OPERATIONS: Record<string, Schema> = {
  token: {
    summary: "Authenticate (password grant) or refresh",
    security: [{ clientBasic: [] }],
    requestBody: {
      required: true,
      content: {
        "application/x-www-form-urlencoded": {
          schema: {
            oneOf: [
              {
                type: "object",
                required: ["grant_type", "username", "password"],
                properties: {
                  grant_type: { const: "password" },
                  username: { type: "string" },
                  password: { type: "string" },
                  scope: { type: "string", description: `space-separated: ${SCOPES.join(" ")}` },
                },
              },
              {
                type: "object",
                required: ["grant_type", "refresh_token"],
                properties: {
                  grant_type: { const: "refresh_token" },
                  refresh_token: { type: "string" },
                  scope: { type: "string" },
                },
              },
            ],
          },
        },
      },
    },
    responses: { ...ok("token pair", ref("TokenResponse")), ...errors(400, 401, 429, 503) },
  },
  merchants: {
    summary: "The token's merchant",
    responses: {
      ...ok("merchants", {
        type: "object",
        properties: { merchants: { type: "array", items: ref("Merchant") } },
      }),
      ...errors(401, 429, 503),
    },
  },
  session: {
    summary: "Get session",
    parameters: [pathParam("session_hash")],
    responses: { ...ok("session", ref("Session")), ...errors(401, 404, 410, 429, 503) },
  },
  tradein_item: {
    summary: "Get trade-in item",
    parameters: [pathParam("trade_in_id")],
    responses: { ...ok("trade-in item", ref("TradeInItem")), ...errors(401, 404, 410, 429, 503) },
  },
  register_purchase: {
    summary: "Register a purchase paid by another method",
    requestBody: { required: true, content: json(jsonSchema(registerPurchaseBody)) },
    responses: {
      ...ok("the order", {
        allOf: [ref("Order"), { properties: { duplicate: { type: "boolean" } } }],
      }),
      ...errors(400, 401, 404, 410, 429, 503),
    },
  },
  order_update: {
    summary: "Update an order (scope updates)",
    requestBody: {
      required: true,
      content: json(
        (() => {
          const schema = jsonSchema(updateBody);
          const properties = schema.properties as Record<string, Schema>;
          properties.update_type = { enum: [...UPDATE_TYPES] };
          return schema;
        })(),
      ),
    },
    responses: {
      ...ok("the order", {
        allOf: [ref("Order"), { properties: { update_type: { enum: [...UPDATE_TYPES] } } }],
      }),
      ...errors(400, 401, 403, 404, 429, 503),
    },
  },
  orders_list: {
    summary: "List orders (reconciliation)",
    parameters: [
      { name: "status", in: "query", required: false, schema: { enum: [...ORDER_STATUSES] } },
      {
        name: "limit",
        in: "query",
        required: false,
        schema: { type: "integer", minimum: 1, maximum: 1000, default: 100 },
      },
    ],
    responses: {
      ...ok("orders, newest first", {
        type: "object",
        properties: { orders: { type: "array", items: ref("Order") } },
      }),
      ...errors(400, 401, 429, 503),
    },
  },
};

/** The document, for a server at `serverUrl`. */
export function openApiDocument(serverUrl: string): Schema {
  const paths: Record<string, Record<string, Schema>> = {};
  for (const endpoint of SERVICE_ENDPOINTS) {
    const operation = OPERATIONS[endpoint.name];
    if (!operation) throw new Error(`no OpenAPI operation for ${endpoint.name}`);
    paths[endpoint.path] ??= {};
    (paths[endpoint.path] as Record<string, Schema>)[endpoint.method.toLowerCase()] = {
      operationId: endpoint.name,
      ...(endpoint.name === "token" ? {} : { security: [{ bearer: [] }] }),
      ...operation,
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Trade-in service API (emulator)",
      version: "1",
      description:
        "The service API of shared/spec/integration-contract.md as the emulator serves it. " +
        "Paths keep their exact trailing-slash form; the other form answers 404. Every amount " +
        "is an integer number of cents.",
    },
    servers: [{ url: serverUrl }],
    paths,
    components: {
      schemas: SCHEMAS,
      securitySchemes: {
        clientBasic: { type: "http", scheme: "basic", description: "client_id:client_secret" },
        bearer: { type: "http", scheme: "bearer" },
      },
    },
  };
}

export const openApiModule: EmulatorModule = {
  name: "openapi",
  mount(app) {
    app.get(OPENAPI_PATH, (c) => c.json(openApiDocument(new URL(c.req.url).origin)));
  },
};
