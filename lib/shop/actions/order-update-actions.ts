"use server";

import { UPDATE_TYPES } from "@service-integration/kit";
import { reconcileServiceOrders, sendOrderUpdate } from "@service-integration/kit/server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { requireAdmin } from "@/lib/auth/admin";
import { serviceOrderDeps } from "@/lib/service-adapter/service";
import { requireFormData } from "../action-arguments";
import { quantityField } from "../quantity";
import { wellFormedString } from "../well-formed";

export interface OrderUpdateState {
  ok?: boolean;
  message?: string;
  error?: string;
}

const QTY_PREFIX = "qty_";

const updateFormSchema = z.object({
  orderId: wellFormedString().min(1).max(64),
  updateType: z.enum(UPDATE_TYPES),
  quantities: z.record(wellFormedString().min(1).max(64), quantityField(0, 1000)),
});

/** One post-purchase update of a service order, from the order page's forms. */
export async function orderUpdateAction(
  _previous: OrderUpdateState,
  form: FormData,
): Promise<OrderUpdateState> {
  requireFormData(form);
  await requireAdmin();
  const quantities: Record<string, unknown> = {};
  for (const [key, value] of form.entries()) {
    if (key.startsWith(QTY_PREFIX) && typeof value === "string" && value.trim() !== "") {
      quantities[key.slice(QTY_PREFIX.length)] = value;
    }
  }
  const parsed = updateFormSchema.safeParse({
    orderId: form.get("orderId"),
    updateType: form.get("update_type"),
    quantities,
  });
  if (!parsed.success) return { error: "Quantities must be whole numbers from 0." };
  const result = await sendOrderUpdate(serviceOrderDeps(), {
    orderId: parsed.data.orderId,
    type: parsed.data.updateType,
    quantities: parsed.data.quantities,
  });
  revalidatePath(`/admin/orders/${parsed.data.orderId}`);
  return result.ok ? { ok: true, message: result.message } : { error: result.error };
}

export interface ReconcileState {
  report?: string[];
  error?: string;
}

/** The back office's "Reconcile with the service" button (contract: GET /payments/orders/). */
export async function reconcileAction(
  _previous: ReconcileState,
  _form: FormData,
): Promise<ReconcileState> {
  requireFormData(_form);
  await requireAdmin();
  try {
    const report = await reconcileServiceOrders(serviceOrderDeps());
    revalidatePath("/admin");
    return { report: report.lines };
  } catch (error) {
    return { error: error instanceof Error ? error.message : "Reconciliation failed." };
  }
}
