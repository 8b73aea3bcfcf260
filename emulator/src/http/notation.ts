// "Decimals are rejected" (contract: What the service does §5, Limits) holds for the JSON text,
// not the parsed number: JSON.parse turns `363.00` into 363, so the check reads the raw text.

/** Keys whose numbers are money (or counts) in the control API, where other numbers (a fault's
 *  probability) may be fractions. The service API and the SDK routes check every number. */
export const MONEY_KEYS: ReadonlySet<string> = new Set([
  "amount",
  "ep1",
  "order_amount",
  "price",
  "quantity",
  "tax",
  "total",
  "trade_in_discount",
  "tradein",
  "value",
]);

export type DecimalNotation = { path: string; literal: string };

type Frame = { kind: "object"; key: string; expectKey: boolean } | { kind: "array"; index: number };

/**
 * The first number literal of a valid JSON text written with a fraction or an exponent
 * (`15000.00`, `1.5e4`), with its path (`cart.items.0.price`); null when there is none.
 * `keys` limits the check to numbers held under those keys.
 */
export function findDecimalNotation(
  text: string,
  keys?: ReadonlySet<string>,
): DecimalNotation | null {
  const frames: Frame[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    const top = frames[frames.length - 1];
    if (ch === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      if (top?.kind === "object" && top.expectKey) {
        top.key = JSON.parse(text.slice(i, j + 1)) as string;
        top.expectKey = false;
      }
      i = j;
    } else if (ch === "{") frames.push({ kind: "object", key: "", expectKey: true });
    else if (ch === "[") frames.push({ kind: "array", index: 0 });
    else if (ch === "}" || ch === "]") frames.pop();
    else if (ch === ",") {
      if (top?.kind === "object") top.expectKey = true;
      else if (top) top.index++;
    } else if (ch === "-" || (ch >= "0" && ch <= "9")) {
      let j = i;
      while (j < text.length && /[-+0-9.eE]/.test(text[j] as string)) j++;
      const literal = text.slice(i, j);
      const key = top?.kind === "object" ? top.key : undefined;
      if (/[.eE]/.test(literal) && (!keys || (key !== undefined && keys.has(key)))) {
        const path = frames.map((f) => (f.kind === "object" ? f.key : String(f.index))).join(".");
        return { path: path || "body", literal };
      }
      i = j - 1;
    }
  }
  return null;
}

/** The contract's 400 description for a decimal found in the text. */
export function describeDecimal(found: DecimalNotation): string {
  return `${found.path}: must be an integer number of cents, written without a decimal point or exponent (got ${found.literal}; decimals are rejected even when the fraction is zero).`;
}
